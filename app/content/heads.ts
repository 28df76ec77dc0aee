import { brand } from "~/content/brand";
import type { PlatformWording } from "~/shared/platform";

/** What every page says of itself to search engines and chat apps. */
export type PageCopy = {
  title: string;
  /** One wording, or one per platform (a link pasted into WhatsApp previews in its words). */
  description: string | PlatformWording;
  keywords?: readonly string[];
  ogType?: "website" | "article";
  datePublished?: string;
  dateModified?: string;
  author?: string;
};

/** Dates are ISO 8601 in Dubai time; the sitemap's lastmod comes from `dateModified`. */
const PUBLISHED = "2026-03-01T09:00:00+04:00";
const UPDATED = "2026-11-22T09:00:00+04:00";
/** When the privacy notice and the terms were last written (their pages say it too). */
const LEGAL_UPDATED = "2026-11-26T09:00:00+04:00";

export const headDefaults = {
  siteName: brand.name,
  /** Open Graph's form of en-AE. */
  ogLocale: "en_AE",
  twitterCard: "summary_large_image",
  author: `${brand.name} team`,
  ogImage: {
    path: "/og-image.png",
    width: 1200,
    height: 630,
    type: "image/png",
    alt: "Darb on a phone: a route along Sheikh Zayed Road with a speed-camera alert, and the line Drive Dubai safer, get up to 25% back on insurance.",
  },
  keywords: [
    "driving coach app Dubai",
    "safe driving app UAE",
    "speed camera alerts Dubai",
    "car insurance cashback UAE",
    "Salik route planner",
    "Dubai navigation app",
  ],
} as const;

export const heads = {
  home: {
    title: `${brand.name}: the free driving coach and navigation app for Dubai`,
    description: {
      default:
        "Darb is a free driving coach and navigation app for Dubai: AI safety coaching, real-time alerts, smarter routes, post-drive analytics and up to 25% insurance cashback.",
      facebook:
        "Drive Dubai safer with Darb, the free app that coaches every drive, warns you before speed cameras and school zones, and can earn you up to 25% back on car insurance.",
      twitter:
        "Free AI driving coach for Dubai: speed-camera alerts, Salik-smart routes, a score after every drive and up to 25% insurance cashback. Limited beta.",
      whatsapp:
        "A free driving coach for Dubai: alerts before speed cameras, a score after every drive and up to 25% back on insurance. Tap to get the app.",
    },
    ogType: "website",
    datePublished: PUBLISHED,
    dateModified: UPDATED,
  },
  share: {
    title: "Share Darb with a driver you know",
    description: {
      default:
        "Pass Darb on: the free Dubai driving coach with speed-camera alerts, post-drive scores and up to 25% insurance cashback.",
      facebook:
        "Know someone who drives Sheikh Zayed Road every day? Share Darb, the free driving coach that can earn them up to 25% back on car insurance.",
      twitter:
        "Share Darb: a free AI driving coach for Dubai with speed-camera alerts and up to 25% insurance cashback.",
      whatsapp:
        "Send Darb to a friend: the free Dubai driving coach with speed-camera alerts and up to 25% back on insurance.",
    },
    ogType: "website",
    datePublished: PUBLISHED,
    dateModified: UPDATED,
  },
  sitemap: {
    title: "Sitemap",
    description: "Every page and section of the Darb website, in one list.",
    dateModified: UPDATED,
  },
  privacy: {
    title: "Privacy notice",
    description:
      "What the Darb website records when you visit, who it sends that to, how long it is kept, and how to have it deleted.",
    dateModified: LEGAL_UPDATED,
  },
  terms: {
    title: "Terms",
    description:
      "The terms of the Darb website and its beta offer in plain words: the beta, the plans and what up to 25% insurance cashback depends on.",
    dateModified: LEGAL_UPDATED,
  },
  thankYou: {
    title: "Thank you",
    description: "Thanks for your interest in Darb, the free driving coach for Dubai.",
  },
  notFound: {
    title: "Page not found",
    description: "This page could not be found.",
  },
} as const satisfies Record<string, PageCopy>;
