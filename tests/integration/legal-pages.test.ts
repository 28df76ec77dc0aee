// The privacy notice, the terms and the company behind the site, over HTTP from the production
// server: what a visitor reads follows the server's settings, and nothing unset is made up.
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legal as arLegal } from "~/content/ar/legal";
import { legal } from "~/content/legal";
import { type ChildServer, startChildServer } from "../support/child-server";
import { IPHONE_SAFARI_17 } from "../support/user-agents";

const SITE = "https://darb.example";
const COMPANY = {
  COMPANY_NAME: "Darb Test Company FZ-LLC",
  COMPANY_LICENCE: "TEST-445566",
  COMPANY_ADDRESS: "Office 7, Test Tower, Dubai, UAE",
};
/** Every destination on: GA4 and Meta on loopback stand-ins that are never called here. */
const DESTINATIONS = {
  GA_MEASUREMENT_ID: "G-TEST12345",
  GA_API_SECRET: "test_secret_1",
  GA_MP_ENDPOINT: "http://127.0.0.1:9/mp/collect",
  META_PIXEL_ID: "123456789",
  META_ACCESS_TOKEN: "EAAB_test_token_01234567",
  META_CAPI_ENDPOINT: "http://127.0.0.1:9/v23.0",
  TIKTOK_PIXEL_CODE: "C4TEST0123456789",
  TIKTOK_ACCESS_TOKEN: "tiktok_test_token_0123",
  TIKTOK_ENDPOINT: "http://127.0.0.1:9/open_api/v1.3",
  SNAP_PIXEL_ID: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
  SNAP_ACCESS_TOKEN: "snap_test_token_0123",
  SNAP_ENDPOINT: "http://127.0.0.1:9/v3",
  GOOGLE_ADS_CUSTOMER_ID: "1234567890",
  GOOGLE_ADS_CONVERSION_ACTION: "555",
  GOOGLE_ADS_DEVELOPER_TOKEN: "dev_test_token",
  GOOGLE_ADS_CLIENT_ID: "1-test.apps.googleusercontent.com",
  GOOGLE_ADS_CLIENT_SECRET: "GOCSPX-test",
  GOOGLE_ADS_REFRESH_TOKEN: "1//test-refresh",
  GOOGLE_ADS_ENDPOINT: "http://127.0.0.1:9/v26",
  GOOGLE_OAUTH_ENDPOINT: "http://127.0.0.1:9/token",
};
const PAGES = ["/privacy", "/terms", "/ar/privacy", "/ar/terms"];

const window = new Window();
type Parsed = ReturnType<InstanceType<typeof window.DOMParser>["parseFromString"]>;
/** The site with nothing but its defaults: no company, no GA4, no Meta, 90 days. */
let bare: ChildServer;
/** The company set, GA4 and Meta on, leads kept 30 days. */
let full: ChildServer;

beforeAll(async () => {
  [bare, full] = await Promise.all([
    startChildServer({ SITE_URL: SITE }),
    startChildServer({ SITE_URL: SITE, ...COMPANY, ...DESTINATIONS, LEAD_RETENTION_DAYS: "30" }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([bare?.kill(), full?.kill()]);
  await window.happyDOM.close();
});

async function page(server: ChildServer, path: string) {
  // As a visitor's browser that asks not to be tracked: reading pages records nothing either way.
  const response = await fetch(`${server.origin}${path}`, {
    headers: { "user-agent": IPHONE_SAFARI_17, "sec-gpc": "1" },
  });
  const html = await response.text();
  const document = new window.DOMParser().parseFromString(html, "text/html");
  return { status: response.status, html, document };
}

/** The text a reader sees in an element, whitespace collapsed. */
const seen = (element: { textContent: string | null } | null | undefined) =>
  (element?.textContent ?? "").replace(/\s+/g, " ").trim();

const headings = (document: Parsed) =>
  [...document.querySelectorAll("main h2")].map((heading) => seen(heading));

function organizationOf(document: Parsed) {
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    const graph = JSON.parse(script.textContent ?? "{}")["@graph"] ?? [];
    const found = graph.find((node: { "@type": string }) => node["@type"] === "Organization");
    if (found) return found;
  }
  throw new Error("no Organization in the page's JSON-LD");
}

describe("the privacy notice and the terms", () => {
  it.each(PAGES)(
    "%s answers 200 in its language and direction, with its own head",
    async (path) => {
      const { status, document } = await page(bare, path);
      expect(status).toBe(200);
      const arabic = path.startsWith("/ar");
      expect(document.documentElement.getAttribute("lang")).toBe(arabic ? "ar" : "en");
      expect(document.documentElement.getAttribute("dir")).toBe(arabic ? "rtl" : "ltr");
      const words = (arabic ? arLegal : legal)[path.endsWith("privacy") ? "privacy" : "terms"];
      expect(seen(document.querySelector("main h1"))).toBe(words.heading);
      const english = path.replace(/^\/ar/, "");
      expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(
        `${SITE}${path}`,
      );
      expect(
        [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((link) => [
          link.getAttribute("hreflang"),
          link.getAttribute("href"),
        ]),
      ).toEqual([
        ["en", `${SITE}${english}`],
        ["ar", `${SITE}/ar${english}`],
        ["x-default", `${SITE}${english}`],
      ]);
      // The site's header and footer frame it like every other page.
      expect(document.querySelector("header")).not.toBeNull();
      expect(document.querySelector("footer")).not.toBeNull();
    },
  );

  it("names Google Analytics and Meta only while they are set up, in both languages", async () => {
    for (const [path, words] of [
      ["/privacy", legal],
      ["/ar/privacy", arLegal],
    ] as const) {
      const off = await page(bare, path);
      expect(headings(off.document)).not.toContain(words.privacy.services.ga4.heading);
      expect(headings(off.document)).not.toContain(words.privacy.services.meta.heading);
      expect(seen(off.document.querySelector("#recipients"))).toContain(
        words.privacy.recipients.none,
      );
      const on = await page(full, path);
      expect(headings(on.document)).toContain(words.privacy.services.ga4.heading);
      expect(headings(on.document)).toContain(words.privacy.services.meta.heading);
      expect(seen(on.document.querySelector("#meta"))).toContain("fbclid");
    }
  });

  it("names TikTok, Snap and Google Ads only while each is set up, in both languages", async () => {
    for (const [path, words] of [
      ["/privacy", legal],
      ["/ar/privacy", arLegal],
    ] as const) {
      const off = await page(bare, path);
      const on = await page(full, path);
      for (const id of ["tiktok", "snap", "google_ads"] as const) {
        expect(headings(off.document)).not.toContain(words.privacy.services[id].heading);
        expect(headings(on.document)).toContain(words.privacy.services[id].heading);
      }
      expect(seen(on.document.querySelector("#tiktok"))).toContain("ttclid");
      expect(seen(on.document.querySelector("#snap"))).toContain("ScCid");
      expect(seen(on.document.querySelector("#google_ads"))).toContain("gclid");
    }
  });

  it("gives the retention LEAD_RETENTION_DAYS sets, and the contact address to write to", async () => {
    const leads = async (server: ChildServer, path: string) =>
      seen((await page(server, path)).document.querySelector("#leads"));
    expect(await leads(bare, "/privacy")).toContain("Leads are kept for 90 days, then erased.");
    expect(await leads(full, "/privacy")).toContain("Leads are kept for 30 days, then erased.");
    expect(await leads(full, "/ar/privacy")).toContain("مدة 30 يومًا");
    const { document } = await page(bare, "/privacy");
    const rights = document.querySelector("#rights a[href^='mailto:']");
    expect(rights?.getAttribute("href")).toBe("mailto:hello@darb.ae");
  });

  it("shows the company's name, licence and address where they are set, and no company where not", async () => {
    for (const path of ["/", "/ar", "/privacy", "/ar/terms"]) {
      const set = seen((await page(full, path)).document.querySelector("footer"));
      for (const value of Object.values(COMPANY)) expect(set, path).toContain(value);
      const unset = seen((await page(bare, path)).document.querySelector("footer"));
      expect(unset, path).not.toMatch(/licence|رخصة/i);
    }
    const privacy = seen((await page(full, "/privacy")).document.querySelector("#who"));
    expect(privacy).toContain(`This website is run by ${COMPANY.COMPANY_NAME}.`);
    expect(privacy).toContain(`Trade licence no. ${COMPANY.COMPANY_LICENCE}`);
    expect(privacy).toContain(`Registered address: ${COMPANY.COMPANY_ADDRESS}`);
    const unnamed = seen((await page(bare, "/terms")).document.querySelector("#who"));
    expect(unnamed).toContain("This website is run by the team behind the Darb app.");
    expect(unnamed).not.toMatch(/licence|Registered address/);
  });

  it("puts the company in the Organization's JSON-LD only while it is set", async () => {
    expect(organizationOf((await page(full, "/")).document)).toMatchObject({
      name: "Darb",
      legalName: COMPANY.COMPANY_NAME,
      identifier: { "@type": "PropertyValue", value: COMPANY.COMPANY_LICENCE },
      address: { streetAddress: COMPANY.COMPANY_ADDRESS, addressCountry: "AE" },
    });
    const bareOrganization = organizationOf((await page(bare, "/ar")).document);
    expect(bareOrganization.legalName).toBeUndefined();
    expect(bareOrganization.identifier).toBeUndefined();
    expect(bareOrganization.address.streetAddress).toBeUndefined();
  });

  it("is linked from every page's footer, in the page's language", async () => {
    for (const [path, prefix] of [
      ["/", ""],
      ["/share", ""],
      ["/ar", "/ar"],
      ["/ar/privacy", "/ar"],
    ] as const) {
      const hrefs = [...(await page(bare, path)).document.querySelectorAll("footer a")].map((a) =>
        a.getAttribute("href"),
      );
      expect(hrefs, path).toEqual(expect.arrayContaining([`${prefix}/privacy`, `${prefix}/terms`]));
    }
  });
});

describe("the sitemaps", () => {
  it("sitemap.xml lists both pages in both languages, each naming en, ar and x-default", async () => {
    const xml = await (await fetch(`${bare.origin}/sitemap.xml`)).text();
    for (const english of ["/privacy", "/terms"]) {
      for (const loc of [english, `/ar${english}`]) {
        const entry = new RegExp(`<url>\\s*<loc>${SITE}${loc}</loc>[\\s\\S]*?</url>`).exec(
          xml,
        )?.[0];
        expect(entry, loc).toBeDefined();
        expect(entry).toContain(`hreflang="en" href="${SITE}${english}"`);
        expect(entry).toContain(`hreflang="ar" href="${SITE}/ar${english}"`);
        expect(entry).toContain(`hreflang="x-default" href="${SITE}${english}"`);
      }
    }
  });

  it("the /sitemap page links both, in its language", async () => {
    for (const prefix of ["", "/ar"]) {
      const { document } = await page(bare, `${prefix}/sitemap`);
      const hrefs = [...document.querySelectorAll("main a")].map((a) => a.getAttribute("href"));
      expect(hrefs).toEqual(expect.arrayContaining([`${prefix}/privacy`, `${prefix}/terms`]));
    }
  });
});
