import { errorFallback } from "~/content/error";

/** Copy for the document frame: skip link, loading state, error and not-found screens. */
export const chrome = {
  skipLink: errorFallback.skipLink,
  loading: "Loading page",
  notFound: {
    status: "404",
    heading: "This road doesn't go anywhere",
    body: "The page you asked for isn't here. It may have moved, or the link may be mistyped.",
    home: "Back to the home page",
    sitemap: "See every page on the sitemap",
  },
  error: errorFallback.error,
} as const;
