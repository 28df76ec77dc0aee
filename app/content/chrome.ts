/** Copy for the document frame: skip link, loading state, error and not-found screens. */
export const chrome = {
  skipLink: "Skip to content",
  loading: "Loading page",
  notFound: {
    status: "404",
    heading: "This road doesn't go anywhere",
    body: "The page you asked for isn't here. It may have moved, or the link may be mistyped.",
    home: "Back to the home page",
    sitemap: "See every page on the sitemap",
  },
  error: {
    // Title fixed by the product spec (§8).
    heading: "Unexpected Application Error!",
    body: "Something went wrong on our side while showing this page. Please try again in a moment.",
    retry: "Reload this page",
    home: "Go to the home page",
  },
} as const;
