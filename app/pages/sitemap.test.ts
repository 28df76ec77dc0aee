import { Window } from "happy-dom";
import { afterAll, describe, expect, it } from "vitest";
import { escapeXml, robotsTxt, sitemapXml } from "~/pages/sitemap";

const SITE = "https://darb.example";
const XHTML = "http://www.w3.org/1999/xhtml";
const window = new Window();
afterAll(() => window.happyDOM.close());

describe("sitemapXml", () => {
  const xml = sitemapXml(SITE);
  const document = new window.DOMParser().parseFromString(xml, "application/xml");
  const urls = [...document.getElementsByTagName("url")];
  const alternatesOf = (url: (typeof urls)[number]) =>
    // By namespace, not by prefix: what a crawler resolves xhtml:link to.
    [...url.children]
      .filter((child) => child.namespaceURI === XHTML && child.localName === "link")
      .map((link) => [
        link.getAttribute("rel"),
        link.getAttribute("hreflang"),
        link.getAttribute("href"),
      ]);

  it("is well-formed, with the sitemaps.org and XHTML namespaces declared", () => {
    expect(document.getElementsByTagName("parsererror")).toHaveLength(0);
    expect(xml).toContain(
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    );
  });

  it("lists the indexable pages in both languages, absolute, and never /thank-you", () => {
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual([
      `${SITE}/`,
      `${SITE}/ar`,
      `${SITE}/share`,
      `${SITE}/ar/share`,
      `${SITE}/sitemap`,
      `${SITE}/ar/sitemap`,
      `${SITE}/privacy`,
      `${SITE}/ar/privacy`,
      `${SITE}/terms`,
      `${SITE}/ar/terms`,
    ]);
    expect(xml).not.toContain("thank-you");
    expect(xml.match(/<lastmod>2026-11-22T09:00:00\+04:00<\/lastmod>/g)).toHaveLength(6);
    // The legal pages carry the date they were last written.
    expect(xml.match(/<lastmod>2026-11-26T09:00:00\+04:00<\/lastmod>/g)).toHaveLength(4);
    expect(urls.map((url) => url.getElementsByTagName("priority")[0]?.textContent)).toEqual([
      "1.0",
      "1.0",
      "0.5",
      "0.5",
      "0.3",
      "0.3",
      "0.3",
      "0.3",
      "0.3",
      "0.3",
    ]);
  });

  it("names en, ar and x-default for every address, the same set from both twins", () => {
    expect(urls).toHaveLength(10);
    const twins: Record<string, [en: string, ar: string]> = {};
    for (const [en, ar] of [
      [`${SITE}/`, `${SITE}/ar`],
      [`${SITE}/share`, `${SITE}/ar/share`],
      [`${SITE}/sitemap`, `${SITE}/ar/sitemap`],
      [`${SITE}/privacy`, `${SITE}/ar/privacy`],
      [`${SITE}/terms`, `${SITE}/ar/terms`],
    ] as const) {
      twins[en] = [en, ar];
      twins[ar] = [en, ar];
    }
    for (const url of urls) {
      const loc = url.getElementsByTagName("loc")[0]?.textContent ?? "";
      const [en, ar] = twins[loc] ?? [];
      expect(alternatesOf(url), loc).toEqual([
        ["alternate", "en", en],
        ["alternate", "ar", ar],
        ["alternate", "x-default", en],
      ]);
    }
  });

  it("builds addresses under a base path", () => {
    const nested = sitemapXml("https://example.com/darb");
    expect(nested).toContain("<loc>https://example.com/darb/ar/share</loc>");
    expect(nested).toContain('hreflang="x-default" href="https://example.com/darb/"');
  });

  it("escapes what XML would misread in an address", () => {
    expect(escapeXml(`a&b<c>"d'`)).toBe("a&amp;b&lt;c&gt;&quot;d&apos;");
    const odd = sitemapXml("https://darb.example/a&b");
    expect(odd).toContain("<loc>https://darb.example/a&amp;b/ar</loc>");
    expect(odd).toContain('href="https://darb.example/a&amp;b/ar"');
    expect(odd).not.toMatch(/&b/);
  });
});

describe("robotsTxt", () => {
  it("allows the site, keeps crawlers off the lead page in both languages and the API, names the sitemap", () => {
    const lines = robotsTxt(SITE).split("\n");
    expect(lines).toContain("Allow: /");
    expect(lines).toContain("Disallow: /thank-you");
    expect(lines).toContain("Disallow: /ar/thank-you");
    expect(lines).toContain("Disallow: /api/");
    expect(lines).toContain(`Sitemap: ${SITE}/sitemap.xml`);
    // Nothing indexable is disallowed.
    expect(lines.filter((line) => line.startsWith("Disallow:"))).toHaveLength(3);
  });
});
