/** The landing page's head, navigation and hero. Sections follow in `sections.ts` and beyond. */
export const landing = {
  nav: {
    label: "Main",
    menu: "Menu",
    /** The home link's name: the brand, then where it leads. */
    home: "Darb, home",
    closeMenu: "Close menu",
    links: [
      { id: "how-it-works", label: "How It Works" },
      { id: "features", label: "Features" },
      { id: "plans", label: "App Plans" },
      { id: "download", label: "Download App" },
      { id: "faq", label: "FAQ" },
    ],
    email: "E-mail us",
    whatsapp: "Chat on WhatsApp",
    /** The phone menu's call to action (WhatsApp). */
    menuCta: "Get the app on WhatsApp",
  },
  hero: {
    badge: "Limited beta · free for Dubai drivers",
    headline: "Drive Dubai safer. Get up to 25% back on insurance.",
    lead: "AI coaching on every drive, alerts before speed cameras and school zones, and cashback on your insurance for driving safely.",
    countdownLabel: "Beta places close in",
    /** BETA_CLOSES_AT written out under the countdown, when set; "{date}" is "30 November". */
    closesOn: "Beta closes {date}",
    closedOn: "Beta closed {date}",
    socialProof: "47 Dubai drivers already use Darb",
    rating: {
      value: 4.8,
      count: 47,
      before: "Rated",
      after: (count: number) => `from ${count} ratings`,
    },
    /** Under the main action: what the tap leads to, as How it works' first step says it. */
    next: "Your iPhone or Android link comes on WhatsApp within the hour, 8 am to 10 pm.",
    /** `next` while the chat's automatic reply sends the link itself (config.instantReply). */
    nextInstant: "Your iPhone or Android link comes on WhatsApp in seconds, any time.",
    /** The quiet link beside it, to the privacy notice. */
    privacy: "Privacy",
    /** The main action's words on a small phone (components/ShortLabel.server.tsx): their start. */
    mainActionShort: "Get the app",
  },
} as const;
