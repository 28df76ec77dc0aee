import { describe, expect, it } from "vitest";
import { escapeXml, robotsTxt, sitemapXml } from "~/lib/sitemap";

describe("sitemapXml", () => {
  const xml = sitemapXml("https://darb.example");
  it("lists the indexable pages with absolute addresses and never /thank-you", () => {
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual([
      "https://darb.example/",
      "https://darb.example/share",
      "https://darb.example/sitemap",
    ]);
    expect(xml).not.toContain("thank-you");
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml.match(/<lastmod>/g)).toHaveLength(3);
  });

  it("escapes what XML would misread in an address", () => {
    expect(escapeXml(`a&b<c>"d'`)).toBe("a&amp;b&lt;c&gt;&quot;d&apos;");
  });
});

describe("robotsTxt", () => {
  it("allows the site, keeps crawlers off the lead page and the API, names the sitemap", () => {
    const lines = robotsTxt("https://darb.example").split("\n");
    expect(lines).toContain("Allow: /");
    expect(lines).toContain("Disallow: /thank-you");
    expect(lines).toContain("Disallow: /api/");
    expect(lines).toContain("Sitemap: https://darb.example/sitemap.xml");
  });
});
