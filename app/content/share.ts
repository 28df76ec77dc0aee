import type { SharePlatform } from "~/lib/share";

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
