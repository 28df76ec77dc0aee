export const footer = {
  address: "Dubai, UAE",
  navLabel: "Footer",
  contactHeading: "Contact",
  pagesHeading: "Site",
  sectionsHeading: "On this page",
  rights: "All rights reserved.",
  /** Beside the copyright. */
  legal: { privacy: "Privacy", terms: "Terms" },
  links: [
    { label: "Home", href: "/" },
    { label: "Share Darb", href: "/share" },
    { label: "Sitemap", href: "/sitemap" },
  ],
} as const;
