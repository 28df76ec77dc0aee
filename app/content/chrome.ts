import { errorFallback } from "~/content/error";

/** Copy for the document frame: skip link, loading state, error and not-found screens. */
export const chrome = {
  skipLink: errorFallback.skipLink,
  loading: "Loading page",
  notFound: {
    status: "404",
    heading: "This road doesn't go anywhere",
    body: "The page you asked for isn't here. It may have moved, or the link may be mistyped.",
    offer:
      "Came for Darb, the free driving coach? Ask for it on WhatsApp, or start from the home page.",
    whatsapp: "Download the free app",
    home: "Back to the home page",
    sitemap: "See every page on the sitemap",
  },
  error: errorFallback.error,
} as const;
