// What a crawler or a chat app reads when it fetches the site: head tags, JSON-LD, sitemap, robots.
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { thankYou as arThankYou } from "~/content/ar/conversion";
import { headDefaults as arHeadDefaults, heads as arHeads } from "~/content/ar/heads";
import { heads } from "~/content/heads";
import { wordingFor } from "~/shared/platform";
import { directFetch, startBuiltServer } from "../support/server";
import {
  FACEBOOK_PREVIEW,
  IPHONE_SAFARI_17,
  TWITTER_PREVIEW,
  WHATSAPP_PREVIEW,
} from "../support/user-agents";

const SITE = "https://darb.example";
const CRAWLERS = {
  facebook: FACEBOOK_PREVIEW,
  twitter: TWITTER_PREVIEW,
  whatsapp: WHATSAPP_PREVIEW,
} as const;

let site: Awaited<ReturnType<typeof startBuiltServer>>;
const window = new Window();

beforeAll(async () => {
  site = await startBuiltServer({ SITE_URL: SITE });
});
afterAll(async () => {
  await site?.close();
  await window.happyDOM.close();
});

async function head(path: string, agent = IPHONE_SAFARI_17) {
  const response = await directFetch(`${site.origin}${path}`, {
    headers: { "user-agent": agent, "sec-gpc": "1" },
  });
  const html = await response.text();
  const document = new window.DOMParser().parseFromString(html, "text/html");
  const meta = (key: string) =>
    document.querySelector(`meta[name="${key}"], meta[property="${key}"]`)?.getAttribute("content");
  return {
    status: response.status,
    headers: response.headers,
    title: document.title,
    meta,
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? null,
    /** Every hreflang link, as [hreflang, href]. */
    alternates: [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((link) => [
      link.getAttribute("hreflang"),
      link.getAttribute("href"),
    ]),
    jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((script) =>
      JSON.parse(script.textContent ?? ""),
    ),
  };
}

describe("every page describes itself completely", () => {
  for (const [path, canonical] of [
    ["/", `${SITE}/`],
    ["/share", `${SITE}/share`],
    ["/sitemap", `${SITE}/sitemap`],
    ["/privacy", `${SITE}/privacy`],
    ["/terms", `${SITE}/terms`],
  ] as const) {
    it(`${path}: title, description, canonical, Open Graph and Twitter card`, async () => {
      const page = await head(`${path}?utm_source=newsletter&x=%3Cb%3E`);
      expect(page.status).toBe(200);
      expect(page.title).toMatch(/Darb/);
      // Query strings never reach the canonical or og:url.
      expect(page.canonical).toBe(canonical);
      expect(page.meta("og:url")).toBe(canonical);
      expect(page.meta("description")?.length).toBeGreaterThan(30);
      expect(page.meta("og:description")).toBe(page.meta("description"));
      expect(page.meta("og:title")).toBe(page.title);
      expect(page.meta("og:site_name")).toBe("Darb");
      expect(page.meta("og:locale")).toBe("en_AE");
      expect(page.meta("og:locale:alternate")).toBe("ar_AE");
      expect(page.meta("og:type")).toBe("website");
      expect(page.meta("og:image")).toBe(`${SITE}/og-image.png`);
      expect(page.meta("og:image:width")).toBe("1200");
      expect(page.meta("og:image:height")).toBe("630");
      expect(page.meta("og:image:alt")?.length).toBeGreaterThan(20);
      expect(page.meta("twitter:card")).toBe("summary_large_image");
      expect(page.meta("twitter:image:alt")).toBe(page.meta("og:image:alt"));
      // X falls back to og:title, og:description and og:image: none is said twice.
      for (const name of ["twitter:title", "twitter:description", "twitter:image"]) {
        expect(page.meta(name), name).toBeUndefined();
      }
      expect(page.meta("keywords")).toContain("Dubai");
      expect(page.meta("robots")).toBe("index, follow");
    });
  }

  it("/ carries its dates and author", async () => {
    const page = await head("/");
    expect(page.meta("article:published_time")).toBe(heads.home.datePublished);
    expect(page.meta("article:modified_time")).toBe(heads.home.dateModified);
    expect(page.meta("author")).toBe("Darb team");
  });

  it("keeps /thank-you and the not-found page out of search results", async () => {
    const thanks = await head("/thank-you?cta=demo");
    expect(thanks.meta("robots")).toBe("noindex, follow");
    expect(thanks.headers.get("x-robots-tag")).toBe("noindex");
    expect(thanks.canonical).toBeNull();
    expect(thanks.alternates).toEqual([]);
    const missing = await head("/no-such-page");
    expect(missing.status).toBe(404);
    expect(missing.meta("robots")).toBe("noindex, follow");
    expect(missing.meta("og:image")).toBe(`${SITE}/og-image.png`);
    expect(missing.alternates).toEqual([]);
  });
});

// The Arabic pages are the same route modules under /ar. Their bodies may still be English
// while the page components are translated, so only what crawlers read of them is checked here.
describe("every Arabic page describes itself in Arabic", () => {
  const ARABIC = /[\u0600-\u06FF]/;
  for (const [name, arPath, enPath] of [
    ["home", "/ar", "/"],
    ["share", "/ar/share", "/share"],
    ["sitemap", "/ar/sitemap", "/sitemap"],
    ["privacy", "/ar/privacy", "/privacy"],
    ["terms", "/ar/terms", "/terms"],
  ] as const) {
    const ar = `${SITE}${arPath}`;
    const en = `${SITE}${enPath}`;

    it(`${arPath}: Arabic title, description and Open Graph, its own canonical`, async () => {
      const page = await head(`${arPath}?utm_source=newsletter&x=%3Cb%3E`);
      expect(page.status).toBe(200);
      const copy = arHeads[name];
      expect(page.title).toBe(copy.title.includes("درب") ? copy.title : `${copy.title} · درب`);
      expect(page.meta("description")).toBe(wordingFor(copy.description, "default"));
      expect(page.meta("og:title")).toBe(page.title);
      expect(page.meta("og:description")).toBe(page.meta("description"));
      expect(page.meta("og:site_name")).toBe("درب");
      expect(page.meta("og:locale")).toBe("ar_AE");
      expect(page.meta("og:locale:alternate")).toBe("en_AE");
      expect(page.meta("og:image")).toBe(`${SITE}/og-image.png`);
      expect(page.meta("og:image:alt")).toBe(arHeadDefaults.ogImage.alt);
      expect(page.meta("keywords")).toMatch(ARABIC);
      expect(page.meta("author")).toBe(arHeadDefaults.author);
      expect(page.meta("robots")).toBe("index, follow");
      // Query strings never reach the canonical or og:url.
      expect(page.canonical).toBe(ar);
      expect(page.meta("og:url")).toBe(ar);
    });

    it(`${arPath} and ${enPath} name each other: en, ar and x-default, absolute`, async () => {
      const expected = [
        ["en", en],
        ["ar", ar],
        ["x-default", en],
      ];
      const arabic = await head(arPath);
      const english = await head(enPath);
      expect(arabic.alternates).toEqual(expected);
      expect(english.alternates).toEqual(expected);
      // Reciprocal: each page is the other's alternate in its language, and its own.
      expect(english.alternates).toContainEqual(["ar", arabic.canonical]);
      expect(arabic.alternates).toContainEqual(["en", english.canonical]);
      for (const [, href] of expected) expect(href).toMatch(/^https:\/\//);
    });
  }

  it("words the Arabic preview for the crawler that asks", async () => {
    const page = await head("/ar", CRAWLERS.whatsapp);
    expect(page.meta("og:description")).toBe(arHeads.home.description.whatsapp);
    const share = await head("/ar/share?platform=twitter");
    expect(share.meta("og:description")).toBe(arHeads.share.description.twitter);
  });

  it("keeps /ar/thank-you and Arabic missing pages out of search results", async () => {
    const thanks = await head("/ar/thank-you?cta=demo");
    expect(thanks.status).toBe(200);
    expect(thanks.meta("robots")).toBe("noindex, follow");
    expect(thanks.headers.get("x-robots-tag")).toBe("noindex");
    expect(thanks.canonical).toBeNull();
    expect(thanks.alternates).toEqual([]);
    // Named for the step that is left, like the page's heading.
    expect(thanks.title).toBe(`${arThankYou.heading.demo} · درب`);
    expect(thanks.meta("og:locale")).toBe("ar_AE");
    const missing = await head("/ar/no-such-page");
    expect(missing.status).toBe(404);
    expect(missing.meta("robots")).toBe("noindex, follow");
    expect(missing.title).toBe(`${arHeads.notFound.title} · درب`);
    expect(missing.alternates).toEqual([]);
  });
});

describe("the preview speaks the platform's words", () => {
  const wording = heads.home.description;

  it("by ?platform= and by the link's source", async () => {
    expect((await head("/?platform=whatsapp")).meta("og:description")).toBe(wording.whatsapp);
    expect((await head("/?platform=twitter")).meta("og:description")).toBe(wording.twitter);
    expect((await head("/?source=facebook")).meta("og:description")).toBe(wording.facebook);
    expect((await head("/?platform=%3Cscript%3E")).meta("og:description")).toBe(wording.default);
    expect((await head("/")).meta("og:description")).toBe(wording.default);
  });

  it("by the crawler that asks, so a link pasted into WhatsApp previews in its words", async () => {
    for (const [platform, agent] of Object.entries(CRAWLERS)) {
      const page = await head("/", agent);
      expect(page.meta("og:description"), platform).toBe(
        wording[platform as keyof typeof CRAWLERS],
      );
    }
    // The crawler decides even when the link was tagged for another network.
    expect((await head("/?source=facebook", CRAWLERS.whatsapp)).meta("og:description")).toBe(
      wording.whatsapp,
    );
  });

  it("on /share too, for the page's own preview", async () => {
    const page = await head("/share?platform=whatsapp");
    expect(page.meta("og:description")).toBe(heads.share.description.whatsapp);
    expect(page.canonical).toBe(`${SITE}/share`);
  });
});

describe("structured data on / and /ar", () => {
  // biome-ignore lint/suspicious/noExplicitAny: JSON-LD is read back as plain JSON, as a crawler does.
  type Node = Record<string, any>;
  const graphOf = async (path: string) => {
    const { jsonLd } = await head(path);
    expect(jsonLd, path).toHaveLength(1);
    const nodes: Node[] = jsonLd[0]["@graph"];
    return (type: string) => nodes.find((node) => node["@type"] === type) as Node;
  };

  it("is one parseable graph with the site, the page, the Organization, the Service and the app", async () => {
    const { jsonLd } = await head("/");
    expect(jsonLd).toHaveLength(1);
    const types = jsonLd[0]["@graph"].map((node: { "@type": string }) => node["@type"]);
    expect(types).toEqual(["WebSite", "WebPage", "Organization", "Service", "MobileApplication"]);
    const node = await graphOf("/");
    const app = node("MobileApplication");
    expect(app.offers).toMatchObject({ price: "0", priceCurrency: "AED" });
    expect(app.aggregateRating).toMatchObject({ ratingValue: 4.8, ratingCount: 47 });
    expect(node("Organization").url).toBe(`${SITE}/`);
    for (const type of ["WebSite", "WebPage", "MobileApplication"]) {
      expect(node(type).inLanguage, type).toBe("en");
    }
  });

  it("is in Arabic on /ar, with inLanguage ar", async () => {
    const node = await graphOf("/ar");
    for (const type of ["WebSite", "WebPage", "MobileApplication"]) {
      expect(node(type).inLanguage, type).toBe("ar");
    }
    expect(node("WebPage")).toMatchObject({
      url: `${SITE}/ar`,
      name: arHeads.home.title,
      description: arHeads.home.description.default,
    });
    expect(node("MobileApplication").name).toBe("درب");
    expect(node("MobileApplication").description).toBe(arHeads.home.description.default);
    expect(node("Organization").name).toBe("درب");
    // The same organisation and app as on /: one thing, described in two languages.
    const english = await graphOf("/");
    expect(node("Organization")["@id"]).toBe(english("Organization")["@id"]);
    expect(node("MobileApplication")["@id"]).toBe(english("MobileApplication")["@id"]);
  });

  it("is only on the page it describes", async () => {
    expect((await head("/share")).jsonLd).toEqual([]);
    expect((await head("/ar/share")).jsonLd).toEqual([]);
  });
});

describe("/sitemap.xml", () => {
  const XHTML = "http://www.w3.org/1999/xhtml";

  it("is a sitemaps.org urlset of every page in both languages, each naming its twins, all answering 200", async () => {
    const response = await directFetch(`${site.origin}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    const text = await response.text();
    expect(text).toMatch(/<urlset [^>]*xmlns:xhtml="http:\/\/www\.w3\.org\/1999\/xhtml"/);
    const xml = new window.DOMParser().parseFromString(text, "application/xml");
    expect(xml.getElementsByTagName("parsererror")).toHaveLength(0);
    expect(xml.documentElement.tagName).toBe("urlset");
    expect(xml.documentElement.namespaceURI).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    const urls = [...xml.getElementsByTagName("url")];
    const locs = urls.map((url) => url.getElementsByTagName("loc")[0]?.textContent ?? "");
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
    const hrefs = new Set<string>(locs);
    for (const [index, url] of urls.entries()) {
      expect(url.getElementsByTagName("lastmod")[0]?.textContent).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      // By namespace, as a crawler resolves the xhtml: prefix.
      const links = [...url.children]
        .filter((child) => child.namespaceURI === XHTML && child.localName === "link")
        .map((link) => [
          link.getAttribute("rel"),
          link.getAttribute("hreflang"),
          link.getAttribute("href"),
        ]);
      // /, /ar → en /, ar /ar; the twins sit side by side.
      const en = locs[index - (index % 2)];
      const ar = locs[index - (index % 2) + 1];
      expect(links, locs[index]).toEqual([
        ["alternate", "en", en],
        ["alternate", "ar", ar],
        ["alternate", "x-default", en],
      ]);
      for (const [, , href] of links) if (href) hrefs.add(href);
    }
    for (const href of hrefs) {
      expect(href.startsWith(`${SITE}/`), href).toBe(true);
      const page = await directFetch(`${site.origin}${new URL(href).pathname}`, {
        headers: { "user-agent": IPHONE_SAFARI_17 },
      });
      expect(page.status, href).toBe(200);
    }
    // The head of each listed page agrees with the sitemap.
    for (const loc of locs) {
      const page = await head(new URL(loc).pathname);
      expect(page.canonical, loc).toBe(loc);
    }
  });
});

describe("/robots.txt", () => {
  it("allows the site, keeps crawlers off /thank-you (both languages) and /api/, and names the sitemap", async () => {
    const response = await directFetch(`${site.origin}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const lines = (await response.text()).split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "User-agent: *",
        "Allow: /",
        "Disallow: /thank-you",
        "Disallow: /ar/thank-you",
        "Disallow: /api/",
        `Sitemap: ${SITE}/sitemap.xml`,
      ]),
    );
  });
});
