// The drawn app screens as the browser gets them: SVG files the documents name in their own
// language, served by the built server over real HTTP, gzipped, cached for a year under a
// content-hashed name, and a 404 that repeats nothing for any other name.
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RawAnswer, rawBytes } from "../support/raw-http";
import { startBuiltServer } from "../support/server";
import { IPHONE_SAFARI_17 } from "../support/user-agents";

let site: Awaited<ReturnType<typeof startBuiltServer>>;

beforeAll(async () => {
  site = await startBuiltServer({ SITE_URL: "https://darb.example" });
});
afterAll(async () => {
  await site?.close();
});

type Raw = RawAnswer<Buffer>;

/** A request as sent, bytes as received: nothing decoded on the way. */
const raw = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  rawBytes(site.origin, path, { method, headers: { "user-agent": IPHONE_SAFARI_17, ...headers } });

const text = (response: Raw) =>
  (response.headers["content-encoding"] === "gzip"
    ? gunzipSync(response.body)
    : response.body
  ).toString("utf8");

/** The document at `path`, and every screen file it names, in the order it names them. */
async function screensOf(path: string) {
  const html = text(await raw(path, { "accept-encoding": "gzip" }));
  return { html, urls: [...html.matchAll(/\/app-screens\/[^"\s,]+/g)].map(([url]) => url) };
}

const LANGUAGES = [
  ["/", "en"],
  ["/ar", "ar"],
] as const;

describe.each(LANGUAGES)("%s", (path, locale) => {
  it("names its own language's screens: the drive in the hero, the report in a section", async () => {
    const { html, urls } = await screensOf(path);
    const name = (screen: string, scheme: string) =>
      new RegExp(`^/app-screens/${screen}-${locale}-${scheme}\\.[0-9a-f]{10}\\.svg$`);
    expect(urls).toHaveLength(6);
    // The hero's drive is cropped to its cards on narrower screens, whole from lg.
    expect(urls[0]).toMatch(name("drive-cropped", "dark"));
    expect(urls[1]).toMatch(name("drive-cropped", "light"));
    expect(urls[2]).toMatch(name("drive", "dark"));
    expect(urls[3]).toMatch(name("drive", "light"));
    expect(urls[4]).toMatch(name("report", "dark"));
    expect(urls[5]).toMatch(name("report", "light"));
    // The hero's is fetched first; the section's only when it nears the screen.
    const hero = html.slice(html.indexOf('id="hero"'), html.indexOf('id="how-it-works"'));
    expect(hero).toMatch(new RegExp(`<img src="${urls[3]}"[^>]* fetchpriority="high"`));
    for (const url of urls.slice(0, 3)) expect(hero).toContain(`srcSet="${url}"`);
    const safety = html.slice(html.indexOf('id="safety-results"'), html.indexOf('id="plans"'));
    expect(safety).toMatch(new RegExp(`<img src="${urls[5]}"[^>]* loading="lazy"`));
    expect(safety).toContain(`srcSet="${urls[4]}"`);
  });

  it("each screen is an SVG image, gzipped, cached for a year, in the page's language", async () => {
    const { urls } = await screensOf(path);
    for (const url of urls) {
      const response = await raw(url, { "accept-encoding": "gzip" });
      expect(response.status, url).toBe(200);
      const h = response.headers;
      expect(h["content-type"]).toBe("image/svg+xml");
      expect(h["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(h["content-encoding"]).toBe("gzip");
      expect(h.vary).toMatch(/accept-encoding/i);
      expect(h["x-content-type-options"]).toBe("nosniff");
      // What every non-document gets: the SVG needs nothing more (no <style>, no script).
      expect(h["content-security-policy"]).toMatch(/^default-src 'none'/);
      const svg = text(response);
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg).toContain(`xml:lang="${locale}"`);
      expect(svg).not.toMatch(/<style|style=|<script/);
      console.info(`${url}: ${svg.length} B, ${response.body.length} B gzipped`);
    }
  });
});

describe("a screen file", () => {
  it("is the same bytes without gzip, and answers HEAD without a body", async () => {
    const [url = ""] = (await screensOf("/")).urls;
    const zipped = text(await raw(url, { "accept-encoding": "gzip" }));
    const plain = await raw(url);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toBe(zipped);
    const head = await raw(url, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-type"]).toBe("image/svg+xml");
    expect(head.body.length).toBe(0);
  });

  it("keeps its name, and so its cache, while nothing in it changes", async () => {
    const first = (await screensOf("/")).urls;
    const again = (await screensOf("/?utm_source=test")).urls;
    expect(again).toEqual(first);
  });
});

describe("any other name under /app-screens/", () => {
  // Each carries a marker, so a page that repeated any part of the request would show it.
  const MARK = "zq7x";
  it("is a 404 that repeats nothing of it, never an error", async () => {
    const [url = ""] = (await screensOf("/")).urls;
    const real = url.slice("/app-screens/".length);
    const hash = real.split(".")[1] ?? "";
    const names = [
      `drive-en-light-${MARK}.svg`,
      real.replace(hash, `${MARK}000000`),
      real.replace("-en-", `-${MARK}-`),
      `drive-fr-light.${hash}.svg?${MARK}`,
      `report-en-sepia${MARK}.${hash}.svg`,
      real.toUpperCase().replace("SVG", MARK),
      `${real}${MARK}`,
      `${real}%00${MARK}.png`,
      `..%2F..%2Fpackage.json%3F${MARK}`,
      `%2e%2e%2fserver-build%2findex.js${MARK}`,
      `%3Cscript%3Ealert(%22${MARK}%22)%3C%2Fscript%3E.svg`,
      `%22%3E%3Cimg%20src%3Dx%20onerror%3D${MARK}%3E`,
      `__proto__${MARK}`,
      `constructor?${MARK}`,
      `${MARK.repeat(500)}.svg`,
      `%F0%9F%9A%97${MARK}.svg`,
    ];
    for (const name of names) {
      const response = await raw(`/app-screens/${name}`, { "accept-encoding": "gzip" });
      expect(response.status, name).toBe(404);
      expect(response.headers["cache-control"], name).not.toMatch(/immutable/);
      expect(text(response).toLowerCase(), name).not.toContain(MARK);
    }
  });

  it("a deeper path is the site's own not-found page", async () => {
    const [url = ""] = (await screensOf("/")).urls;
    const response = await raw(url.replace("/app-screens/", `/app-screens/${MARK}/`));
    expect(response.status).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
  });

  it("a name with a broken escape is refused before it reaches the route", async () => {
    const response = await raw(`/app-screens/%zz${MARK}.svg`);
    expect(response.status).toBe(400);
    expect(response.body.toString("utf8")).not.toContain(MARK);
  });
});
