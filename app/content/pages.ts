/** The site's pages, for the human sitemap and the not-found page's way out. */
export const pages = {
  sitemap: {
    heading: "Sitemap",
    intro: "Everything on this site, in one list.",
    pagesHeading: "Pages",
    sectionsHeading: "On the home page",
    pages: [
      { label: "Home", href: "/", note: "What Darb does and how to get it" },
      { label: "Share Darb", href: "/share", note: "Pass the app on to a driver you know" },
      { label: "Sitemap", href: "/sitemap", note: "This page" },
      {
        label: "Privacy notice",
        href: "/privacy",
        note: "What this site records and sends, and how to have it deleted",
      },
      { label: "Terms", href: "/terms", note: "The site and the beta offer, in plain words" },
    ],
    sections: [
      { label: "Get the free app", href: "/#hero" },
      { label: "How it works", href: "/#how-it-works" },
      { label: "Features", href: "/#features" },
      { label: "Safety results", href: "/#safety-results" },
      { label: "App plans", href: "/#plans" },
      { label: "From a beta driver", href: "/#testimonial" },
      { label: "Why drivers trust Darb", href: "/#trust" },
      { label: "Download the app", href: "/#download" },
      { label: "FAQ", href: "/#faq" },
      { label: "Start driving safer", href: "/#get-started" },
    ],
  },
} as const;
