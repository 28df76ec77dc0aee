export const footer = {
  address: "Dubai, UAE",
  navLabel: "Footer",
  rights: "All rights reserved.",
  links: [
    { label: "Home", href: "/" },
    { label: "Sitemap", href: "/sitemap" },
  ],
} as const;
