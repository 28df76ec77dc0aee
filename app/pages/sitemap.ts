import { heads } from "~/content/heads";
import { absoluteUrl, alternates, PAGES, type PageKey } from "~/pages/seo";
import { LOCALES, localePath } from "~/shared/locale";

/**
 * The pages search engines may index, in the order the sitemap lists them (never /thank-you),
 * each once per language.
 */
export const INDEXABLE_PAGES = (
  [
    { page: "home", priority: "1.0" },
    { page: "share", priority: "0.5" },
    { page: "sitemap", priority: "0.3" },
    { page: "privacy", priority: "0.3" },
    { page: "terms", priority: "0.3" },
  ] as const satisfies readonly { page: PageKey; priority: string }[]
).map(({ page, priority }) => {
  const { path, noindex } = PAGES[page];
  if (path === null || noindex) throw new Error(`${page} is not an indexable page`);
  return { page, path, lastModified: heads[page].dateModified, priority };
});

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}

/**
 * A sitemaps.org 0.9 urlset with absolute addresses under SITE_URL: every indexable page in
 * every language, each naming all its language versions and x-default (Google's hreflang in
 * sitemaps, as xhtml:link after the sitemaps.org elements).
 */
export function sitemapXml(siteUrl: string): string {
  const urls = INDEXABLE_PAGES.flatMap((page) => {
    const links = alternates(siteUrl, page.path).map(
      ({ hreflang, href }) =>
        `    <xhtml:link rel="alternate" hreflang="${escapeXml(hreflang)}" href="${escapeXml(href)}"/>\n`,
    );
    return LOCALES.map(
      (locale) =>
        `  <url>\n    <loc>${escapeXml(absoluteUrl(siteUrl, localePath(locale, page.path)))}</loc>\n` +
        `    <lastmod>${page.lastModified}</lastmod>\n    <priority>${page.priority}</priority>\n` +
        `${links.join("")}  </url>`,
    );
  });
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n` +
    `${urls.join("\n")}\n</urlset>\n`
  );
}

/**
 * Crawlers may read everything but the lead page (in every language: /thank-you, /ar/thank-you)
 * and the event intake.
 */
export function robotsTxt(siteUrl: string): string {
  const leadPages = Object.values(PAGES).flatMap(({ path, noindex }) =>
    noindex && path !== null ? LOCALES.map((locale) => localePath(locale, path)) : [],
  );
  return [
    "User-agent: *",
    "Allow: /",
    ...leadPages.map((path) => `Disallow: ${path}`),
    "Disallow: /api/",
    "",
    `Sitemap: ${absoluteUrl(siteUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}
