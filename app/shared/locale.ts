/**
 * The site's two languages. English lives at the root (/, /share…), Arabic under /ar (/ar,
 * /ar/share…): the same route modules mounted twice (remix.config.js). A page's language comes
 * from its path alone, so a link always shows the language it names.
 */
export const LOCALES = ["en", "ar"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

export type LocaleInfo = {
  /** For <html lang> and hreflang. */
  lang: string;
  dir: "ltr" | "rtl";
  /** For Intl: Arabic with Western digits, as UAE road signs, prices and phones print them. */
  intl: string;
  /** Open Graph's form. */
  ogLocale: string;
  /** The language's own name, for the switch that leads to it. */
  name: string;
};

export const LOCALE_INFO: Record<Locale, LocaleInfo> = {
  en: { lang: "en", dir: "ltr", intl: "en-AE", ogLocale: "en_AE", name: "English" },
  ar: { lang: "ar", dir: "rtl", intl: "ar-AE-u-nu-latn", ogLocale: "ar_AE", name: "العربية" },
};

const PREFIX: Record<Locale, string> = { en: "", ar: "/ar" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** The language of a path: "/ar" and "/ar/…" are Arabic, everything else English. */
export function localeOfPath(pathname: string): Locale {
  return pathname === "/ar" || pathname.startsWith("/ar/") ? "ar" : "en";
}

/**
 * A site path in a language: ("ar", "/share") → "/ar/share", ("ar", "/") → "/ar",
 * ("ar", "/#faq") → "/ar#faq". Paths are the English ones, as content/ writes them.
 */
export function localePath(locale: Locale, path: string): string {
  const prefix = PREFIX[locale];
  if (!prefix) return path;
  const rest = path.replace(/^\/(?=[?#]|$)/, "");
  return `${prefix}${rest}`;
}

/**
 * The English path of a page, whatever its language: "/ar/share" → "/share", "/ar" → "/".
 * Always one leading slash: "/ar//evil.example" must not become "//evil.example", which a
 * browser reads as another site.
 */
export function basePath(pathname: string): string {
  const rest = localeOfPath(pathname) === "en" ? pathname : pathname.slice(PREFIX.ar.length);
  return `/${rest.replace(/^[/\\]+/, "")}`;
}

/** The same page in another language, for the switch and the hreflang links. */
export function pathInLocale(pathname: string, locale: Locale): string {
  return localePath(locale, basePath(pathname));
}

/** The language a page offers to switch to. */
export function otherLocale(locale: Locale): Locale {
  return locale === "en" ? "ar" : "en";
}
