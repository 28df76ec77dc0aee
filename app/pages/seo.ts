import type { MetaDescriptor } from "@remix-run/node";
import * as arHeads from "~/content/ar/heads";
import type { PageCopy } from "~/content/heads";
import * as enHeads from "~/content/heads";
import type { Localized } from "~/content/localized";
import {
  basePath,
  LOCALE_INFO,
  LOCALES,
  type Locale,
  localeOfPath,
  localePath,
} from "~/shared/locale";
import { type Platform, wordingFor } from "~/shared/platform";

/** The page-head settings (docs/product.md), as one route states them. */
export type PageHead = PageCopy & {
  /**
   * The page's English path without a query string (content/ writes paths in English): the
   * canonical, og:url and the hreflang links are built from it in each language.
   */
  path: string;
  ogImage?: { path: string; width: number; height: number; alt: string; type: string };
  ogType?: "website" | "article";
  twitterCard?: "summary" | "summary_large_image";
  /** Pages that must never appear in search results: /thank-you, the not-found page. */
  noindex?: boolean;
};

/** What the head needs from the request: where the site lives, who is asking, in which language. */
export type HeadContext = { siteUrl: string; platform: Platform; locale: Locale };

/** The head copy of one language: content/heads.ts and content/ar/heads.ts have this shape. */
export type HeadCopy = {
  headDefaults: Localized<typeof enHeads.headDefaults>;
  heads: Localized<typeof enHeads.heads>;
};

export const HEAD_COPY: Record<Locale, HeadCopy> = { en: enHeads, ar: arHeads };

/** The pages that have a head of their own, named as content/heads.ts names them. */
export type PageKey = keyof HeadCopy["heads"];

/**
 * Where each page lives (in English; the Arabic twin is the same path under /ar) and whether
 * search engines may index it. The not-found page has no address: it answers for any path.
 */
export const PAGES: { readonly [K in PageKey]: { path: string | null; noindex: boolean } } = {
  home: { path: "/", noindex: false },
  share: { path: "/share", noindex: false },
  sitemap: { path: "/sitemap", noindex: false },
  privacy: { path: "/privacy", noindex: false },
  terms: { path: "/terms", noindex: false },
  thankYou: { path: "/thank-you", noindex: true },
  notFound: { path: null, noindex: true },
};

/**
 * A page's head settings in the language of `pathname`, the path the visitor asked for: that
 * language's copy of the page, its English path (the requested one for the not-found page)
 * and whether search engines may index it.
 */
export function pageHead(page: PageKey, pathname: string): { locale: Locale; head: PageHead } {
  const locale = localeOfPath(pathname);
  const { path, noindex } = PAGES[page];
  const head = { ...HEAD_COPY[locale].heads[page], path: path ?? basePath(pathname), noindex };
  return { locale, head };
}

export function absoluteUrl(siteUrl: string, path: string): string {
  return `${siteUrl}${path === "/" ? "/" : path}`;
}

/** The page's title with the brand after it, in the page's language, unless it names it already. */
export function fullTitle(title: string, locale: Locale = "en"): string {
  const { siteName } = HEAD_COPY[locale].headDefaults;
  return title.includes(siteName) ? title : `${title} · ${siteName}`;
}

/** One address of a page for each hreflang: every language, and x-default for the rest. */
export type Alternate = { hreflang: string; href: string };

/**
 * The page at `path` (English) in every language, absolute, plus x-default: the English page,
 * for readers of neither language. The head's links and the sitemap's xhtml:link both say this.
 */
export function alternates(siteUrl: string, path: string): Alternate[] {
  const languages = LOCALES.map((locale) => ({
    hreflang: LOCALE_INFO[locale].lang,
    href: absoluteUrl(siteUrl, localePath(locale, path)),
  }));
  return [...languages, { hreflang: "x-default", href: absoluteUrl(siteUrl, path) }];
}

/** og:locale for the page's language, og:locale:alternate for each other one. */
export function ogLocales(locale: Locale): MetaDescriptor[] {
  return [
    { property: "og:locale", content: LOCALE_INFO[locale].ogLocale },
    ...LOCALES.filter((other) => other !== locale).map((other) => ({
      property: "og:locale:alternate",
      content: LOCALE_INFO[other].ogLocale,
    })),
  ];
}

/**
 * The one place a route's head is made. A route's `meta` replaces its parents', so every route
 * calls this and gets the shared tags too.
 */
export function pageMeta(head: PageHead, context: HeadContext): MetaDescriptor[] {
  const { headDefaults } = HEAD_COPY[context.locale];
  const title = fullTitle(head.title, context.locale);
  const description = wordingFor(head.description, context.platform);
  const url = absoluteUrl(context.siteUrl, localePath(context.locale, head.path));
  const image = head.ogImage ?? headDefaults.ogImage;
  const imageUrl = absoluteUrl(context.siteUrl, image.path);
  const author = head.author ?? headDefaults.author;
  const keywords = [...(head.keywords ?? []), ...headDefaults.keywords];

  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { name: "keywords", content: keywords.join(", ") },
    { name: "author", content: author },
    { name: "robots", content: head.noindex ? "noindex, follow" : "index, follow" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: head.ogType ?? "website" },
    { property: "og:url", content: url },
    { property: "og:site_name", content: headDefaults.siteName },
    ...ogLocales(context.locale),
    { property: "og:image", content: imageUrl },
    { property: "og:image:type", content: image.type },
    { property: "og:image:width", content: String(image.width) },
    { property: "og:image:height", content: String(image.height) },
    { property: "og:image:alt", content: image.alt },
    // X reads og:title, og:description and og:image when its own tags are missing, so only the
    // card's type and the image's alt text (which has no fallback) are said again for it.
    { name: "twitter:card", content: head.twitterCard ?? headDefaults.twitterCard },
    { name: "twitter:image:alt", content: image.alt },
  ];
  // A page kept out of search results names no canonical address of its own, and no twins.
  if (!head.noindex) {
    tags.push({ tagName: "link", rel: "canonical", href: url });
    for (const { hreflang, href } of alternates(context.siteUrl, head.path)) {
      tags.push({ tagName: "link", rel: "alternate", hrefLang: hreflang, href });
    }
  }
  if (head.datePublished)
    tags.push({ property: "article:published_time", content: head.datePublished });
  if (head.dateModified)
    tags.push({ property: "article:modified_time", content: head.dateModified });
  if (head.author) tags.push({ property: "article:author", content: head.author });
  return tags;
}
