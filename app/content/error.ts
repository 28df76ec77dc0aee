/**
 * The frame's words that must work without the page's data: when the root loader itself fails,
 * the error screen has nothing else to say them with. English, as docs/product.md titles it. The browser
 * bundle carries these few and no other copy (content/chrome.ts reuses them).
 */
export const errorFallback = {
  skipLink: "Skip to content",
  error: {
    // Title fixed by the product (docs/product.md).
    heading: "Unexpected Application Error!",
    body: "Something went wrong on our side while showing this page. Please try again in a moment.",
    retry: "Reload this page",
    home: "Go to the home page",
  },
} as const;
