// What a crawler or a chat app reads when it fetches the site: head tags, JSON-LD, sitemap, robots.
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heads } from "~/content/heads";
import { directFetch, startBuiltServer } from "./server";

const SITE = "https://darb.example";
const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const CRAWLERS = {
  facebook: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  twitter: "Twitterbot/1.0",
  whatsapp: "WhatsApp/2.23.20.0 A",
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

async function head(path: string, agent = PHONE) {
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
      expect(page.meta("og:type")).toBe("website");
      expect(page.meta("og:image")).toBe(`${SITE}/og-image.png`);
      expect(page.meta("og:image:width")).toBe("1200");
      expect(page.meta("og:image:height")).toBe("630");
      expect(page.meta("og:image:alt")?.length).toBeGreaterThan(20);
      expect(page.meta("twitter:card")).toBe("summary_large_image");
      expect(page.meta("twitter:image")).toBe(`${SITE}/og-image.png`);
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
    const missing = await head("/no-such-page");
    expect(missing.status).toBe(404);
    expect(missing.meta("robots")).toBe("noindex, follow");
    expect(missing.meta("og:image")).toBe(`${SITE}/og-image.png`);
  });
});

describe("the preview speaks the platform's words", () => {
  const wording = heads.home.description;

  it("by ?platform= and by the link's source", async () => {
    expect((await head("/?platform=whatsapp")).meta("og:description")).toBe(wording.whatsapp);
    expect((await head("/?platform=twitter")).meta("twitter:description")).toBe(wording.twitter);
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

describe("structured data on /", () => {
  it("is one parseable graph with the Organization, the Service and the app", async () => {
    const { jsonLd } = await head("/");
    expect(jsonLd).toHaveLength(1);
    const types = jsonLd[0]["@graph"].map((node: { "@type": string }) => node["@type"]);
    expect(types).toEqual(["Organization", "Service", "MobileApplication"]);
    const app = jsonLd[0]["@graph"][2];
    expect(app.offers).toMatchObject({ price: "0", priceCurrency: "AED" });
    expect(app.aggregateRating).toMatchObject({ ratingValue: 4.8, ratingCount: 47 });
    expect(jsonLd[0]["@graph"][0].url).toBe(`${SITE}/`);
  });

  it("is only on the page it describes", async () => {
    expect((await head("/share")).jsonLd).toEqual([]);
  });
});

describe("/sitemap.xml", () => {
  it("is a sitemaps.org urlset of absolute addresses that all answer 200", async () => {
    const response = await directFetch(`${site.origin}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    const xml = new window.DOMParser().parseFromString(await response.text(), "application/xml");
    expect(xml.getElementsByTagName("parsererror")).toHaveLength(0);
    expect(xml.documentElement.tagName).toBe("urlset");
    expect(xml.documentElement.namespaceURI).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    const urls = [...xml.getElementsByTagName("url")];
    const locs = urls.map((url) => url.getElementsByTagName("loc")[0]?.textContent ?? "");
    expect(locs).toEqual([`${SITE}/`, `${SITE}/share`, `${SITE}/sitemap`]);
    for (const url of urls) {
      expect(url.getElementsByTagName("lastmod")[0]?.textContent).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    for (const loc of locs) {
      const page = await directFetch(`${site.origin}${new URL(loc).pathname}`, {
        headers: { "user-agent": PHONE },
      });
      expect(page.status, loc).toBe(200);
    }
  });
});

describe("/robots.txt", () => {
  it("allows the site, keeps crawlers off /thank-you and /api/, and names the sitemap", async () => {
    const response = await directFetch(`${site.origin}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const lines = (await response.text()).split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "User-agent: *",
        "Allow: /",
        "Disallow: /thank-you",
        "Disallow: /api/",
        `Sitemap: ${SITE}/sitemap.xml`,
      ]),
    );
  });
});
