/**
 * The icons the page's interactive parts show, and those its static parts repeat (a check per
 * plan feature, a chevron per question, an arrow per call). They are drawn once on the server (lucide-react,
 * and Tabler's brand marks for the networks: components/icons.server.tsx) into an SVG sprite in every
 * page (a static part), and the parts point at them with <use>: no icon code in the bundle, no
 * icon twice in the page.
 */
export const ICON_NAMES = [
  "arrow-right",
  "brand-facebook",
  "brand-linkedin",
  "brand-twitter",
  "brand-whatsapp",
  "check",
  "chevron-down",
  "close",
  "copy",
  "languages",
  "mail",
  "menu",
  "refresh",
  "share",
  "whatsapp",
] as const;
export type IconName = (typeof ICON_NAMES)[number];

/** Prefix of the symbols' ids: `#icon-share`. */
export const ICON_PREFIX = "icon-";

/** The logo's symbol in the same sprite (components/BrandDrawing.server.tsx). */
export const BRAND_SYMBOL = "brand-mark";
