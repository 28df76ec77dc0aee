import { heads } from "~/content/heads";
import { absoluteUrl } from "~/lib/seo";

/** The pages search engines may index, in the order the sitemap lists them (never /thank-you). */
export const INDEXABLE_PAGES = [
  { path: "/", lastModified: heads.home.dateModified, priority: "1.0" },
  { path: "/share", lastModified: heads.share.dateModified, priority: "0.5" },
  { path: "/sitemap", lastModified: heads.sitemap.dateModified, priority: "0.3" },
] as const;

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

/** A sitemaps.org 0.9 urlset with absolute addresses under SITE_URL. */
export function sitemapXml(siteUrl: string): string {
  const urls = INDEXABLE_PAGES.map(
    (page) =>
      `  <url>\n    <loc>${escapeXml(absoluteUrl(siteUrl, page.path))}</loc>\n` +
      `    <lastmod>${page.lastModified}</lastmod>\n    <priority>${page.priority}</priority>\n  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

/** Crawlers may read everything but the lead page and the event intake. */
export function robotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /thank-you",
    "Disallow: /api/",
    "",
    `Sitemap: ${absoluteUrl(siteUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}
