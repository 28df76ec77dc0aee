import type { PlatformWording } from "~/shared/platform";
import type { SharePlatform } from "~/shared/share-platforms";

export const share = {
  button: "Share",
  menuLabel: "Share Darb",
  title: "Darb: the free driving coach for Dubai",
  text: "I'm using Darb, a free driving coach for Dubai: safety coaching, speed-camera alerts and up to 25% back on car insurance.",
  platforms: {
    facebook: "Facebook",
    twitter: "X (Twitter)",
    linkedin: "LinkedIn",
    whatsapp: "WhatsApp",
  } satisfies Record<SharePlatform, string>,
  opensInNewWindow: "(opens in a new window)",
} as const;

/** The message each network carries (Facebook's sharer shows only the link's own preview). */
export const shareMessages = {
  default: share.text,
  whatsapp:
    "Have a look at Darb, a free driving coach for Dubai. It warns you before speed cameras and school zones, scores every drive, and can get you up to 25% back on car insurance.",
  twitter:
    "Darb is a free AI driving coach for Dubai: speed-camera alerts, a score after every drive and up to 25% back on insurance.",
} satisfies PlatformWording;

/** The /share page. */
export const sharePage = {
  heading: "Share Darb with a driver you know",
  intro:
    "A friend who crawls along Al Khail Road every morning, a new driver still learning where the speed cameras are, a parent on the school run: send them Darb. It's free, and it takes them a minute to get.",
  previewHeading: "What they'll receive",
  previewFor: "As it looks on {network}",
  platformsHeading: "Share it on",
  shareOn: "Share on {network}",
  linkHeading: "Or send the link yourself",
  native: "More ways to share",
} as const;
