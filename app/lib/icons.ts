/**
 * The icons the page's interactive parts show. They are drawn once on the server with
 * lucide-react (lib/icons.server.tsx) and reach the browser as markup in the root loader's data,
 * so no icon code is in the bundle: the icons never change, only the parts around them do.
 */
export const ICON_NAMES = [
  "close",
  "languages",
  "mail",
  "menu",
  "refresh",
  "share",
  "whatsapp",
] as const;
export type IconName = (typeof ICON_NAMES)[number];
