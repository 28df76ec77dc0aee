import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directFetch, startBuiltServer } from "../support/server";
import { GOOGLEBOT_BARE, IPHONE_SAFARI_17, WHATSAPP_PREVIEW } from "../support/user-agents";
import { checkDocuments, describeMessage, type VnuMessage } from "../support/vnu";

// Every kind of document the site serves, as people and crawlers get it.
const PAGES: Record<string, { path: string; agent?: string; status?: number }> = {
  "home.html": { path: "/" },
  "home-crawler.html": { path: "/", agent: GOOGLEBOT_BARE },
  "home-whatsapp.html": { path: "/?source=whatsapp", agent: WHATSAPP_PREVIEW },
  "share.html": { path: "/share" },
  "share-twitter.html": { path: "/share?platform=twitter" },
  "sitemap.html": { path: "/sitemap" },
  "privacy.html": { path: "/privacy" },
  "terms.html": { path: "/terms" },
  "thank-you-whatsapp.html": { path: "/thank-you?cta=whatsapp&source=instagram" },
  "thank-you-email.html": { path: "/thank-you?cta=email&source=hero&returnUrl=%2Fshare" },
  "thank-you-demo.html": { path: "/thank-you?cta=demo" },
  "thank-you-bare.html": { path: "/thank-you" },
  "not-found.html": { path: "/no/such/page", status: 404 },
  // The Arabic twins: the same route modules under /ar, with Arabic heads and JSON-LD.
  "ar-home.html": { path: "/ar" },
  "ar-home-crawler.html": { path: "/ar", agent: GOOGLEBOT_BARE },
  "ar-share.html": { path: "/ar/share" },
  "ar-sitemap.html": { path: "/ar/sitemap" },
  "ar-privacy.html": { path: "/ar/privacy" },
  "ar-terms.html": { path: "/ar/terms" },
  "ar-thank-you-demo.html": { path: "/ar/thank-you?cta=demo" },
  "ar-not-found.html": { path: "/ar/no/such/page", status: 404 },
};

let site: Awaited<ReturnType<typeof startBuiltServer>>;
let messages: VnuMessage[] = [];
const bodies: Record<string, string> = {};

beforeAll(async () => {
  site = await startBuiltServer({ SITE_URL: "https://darb.example" });
  for (const [name, page] of Object.entries(PAGES)) {
    const response = await directFetch(`${site.origin}${page.path}`, {
      headers: { "user-agent": page.agent ?? IPHONE_SAFARI_17, "sec-gpc": "1" },
    });
    expect(response.status, page.path).toBe(page.status ?? 200);
    bodies[name] = await response.text();
  }
  const sitemap = await directFetch(`${site.origin}/sitemap.xml`);
  // Named .xhtml so the checker reads it with its XML parser: well-formedness errors are fatal.
  bodies["sitemap-xml.xhtml"] = await sitemap.text();
  messages = await checkDocuments(bodies);
}, 120_000);

afterAll(async () => {
  await site?.close();
});

describe("the W3C Nu HTML Checker", () => {
  it("checked every document", () => {
    expect(Object.keys(bodies)).toHaveLength(Object.keys(PAGES).length + 1);
    expect(messages.filter((m) => m.type === "non-document-error").map(describeMessage)).toEqual(
      [],
    );
  });

  for (const [name, page] of Object.entries(PAGES)) {
    it(`finds no error in ${page.path} (${name})`, () => {
      const errors = messages.filter((m) => m.url === name && m.type === "error");
      expect(errors.map(describeMessage)).toEqual([]);
    });
  }

  it("reads sitemap.xml as well-formed XML", () => {
    const fatal = messages.filter((m) => m.url === "sitemap-xml.xhtml" && m.subType === "fatal");
    expect(fatal.map(describeMessage)).toEqual([]);
  });

  it("would see a broken document: the check is live", async () => {
    const broken = await checkDocuments({
      "broken.html": "<!doctype html><html lang=en><title>x</title><p><div></p>",
      "broken.xhtml": "<urlset><loc>a & b</loc></urlset>",
    });
    expect(broken.some((m) => m.url === "broken.html" && m.type === "error")).toBe(true);
    expect(broken.some((m) => m.url === "broken.xhtml" && m.subType === "fatal")).toBe(true);
  }, 60_000);
});
