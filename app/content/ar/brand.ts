import type { brand as en } from "~/content/brand";
import type { Localized } from "~/content/localized";

/** The product's name and the words every page shares, in Arabic. "درب" means path, or way. */
export const brand: Localized<typeof en> = {
  name: "درب",
  tagline: "مدرّب القيادة الذكي المجاني في دبي",
  themeColor: "#0b1f33",
  locale: "ar-AE",
  timeZone: "Asia/Dubai",
};
