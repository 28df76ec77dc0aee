/** The site's pages, for the human sitemap and the not-found page's way out. */
export const pages = {
  sitemap: {
    title: "Sitemap",
    description: "Every page and section of the Darb website.",
    heading: "Sitemap",
    intro: "Everything on this site, in one list.",
    pagesHeading: "Pages",
    sectionsHeading: "On the home page",
    pages: [
      { label: "Home", href: "/", note: "What Darb does and how to get it" },
      { label: "Sitemap", href: "/sitemap", note: "This page" },
    ],
    sections: [] as { label: string; href: string }[],
  },
  notFound: {
    description: "This page could not be found.",
  },
} as const;
