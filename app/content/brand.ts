/** The product's name and the words every page shares. One place to edit. */
export const brand = {
  name: "Darb",
  /** What the name means, for the about line and structured data later. */
  tagline: "The free driving coach for Dubai",
  themeColor: "#0b1f33",
  locale: "en-AE",
  timeZone: "Asia/Dubai",
} as const;
