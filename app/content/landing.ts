import { brand } from "~/content/brand";

/** Copy for the landing page, section by section, in page order. */
export const landing = {
  head: {
    title: brand.name,
    description:
      "Darb is a free driving coach and navigation app for Dubai: AI safety coaching, real-time alerts, smarter routes, post-drive analytics and up to 25% insurance cashback.",
  },
  hero: {
    badge: "Limited beta · free for Dubai drivers",
    headline: "Drive Dubai safer. Get up to 25% back on insurance.",
    lead: "Darb coaches you on every drive, warns you before speed cameras, school zones and sudden braking on Sheikh Zayed Road, and turns safe driving into cashback on your insurance.",
  },
} as const;
