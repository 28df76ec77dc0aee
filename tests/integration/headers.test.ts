// What every response tells the browser: hardening headers, caching, and the nonce it carries.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawBytes } from "../support/raw-http";
import { directFetch, startBuiltServer } from "../support/server";
import { IPHONE_SAFARI_17, WHATSAPP_PREVIEW } from "../support/user-agents";

let site: Awaited<ReturnType<typeof startBuiltServer>>;

beforeAll(async () => {
  site = await startBuiltServer({ SITE_URL: "https://darb.example" });
});
afterAll(async () => {
  await site?.close();
});

/** A raw GET: headers and bytes exactly as sent, nothing decoded on the way. */
const raw = async (path: string, headers: Record<string, string> = {}, method = "GET") => {
  const answer = await rawBytes(site.origin, path, {
    method,
    headers: { "user-agent": IPHONE_SAFARI_17, ...headers },
  });
  return { ...answer, headers: answer.headers as Record<string, string> };
};

const EVERY_KIND = [
  ["the landing page", "/", 200],
  ["the share page", "/share?platform=whatsapp", 200],
  ["the lead page", "/thank-you?cta=demo", 200],
  ["the not-found page", "/no/such/page", 404],
  ["a data request", "/?_data=root", 200],
  ["the sitemap", "/sitemap.xml", 200],
  ["robots.txt", "/robots.txt", 200],
  ["the health check", "/healthz", 200],
  ["the event intake (wrong method)", "/api/events", 405],
  ["a write to a page, refused before Remix", "/thank-you", 405, "PUT"],
  ["a host name that is not one", "/", 400, "GET", { "x-forwarded-host": "darb.example:99999" }],
] as const;

describe("every response is hardened", () => {
  for (const [name, path, status, method = "GET", extra = {}] of EVERY_KIND) {
    it(name, async () => {
      const response = await raw(path, { "sec-gpc": "1", ...extra }, method);
      expect(response.status).toBe(status);
      const h = response.headers;
      expect(h["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
      expect(h["content-security-policy"]).toMatch(/base-uri 'none'/);
      expect(h["content-security-policy"]).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(h["x-content-type-options"]).toBe("nosniff");
      expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(h["permissions-policy"]).toBe("camera=(), microphone=(), geolocation=(), payment=()");
      expect(h["cross-origin-opener-policy"]).toBe("same-origin");
      expect(h["x-frame-options"]).toBe("DENY");
      expect(h["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      expect(h["x-powered-by"]).toBeUndefined();
    });
  }
});

describe("a document's scripts run only with its own, fresh nonce", () => {
  for (const path of ["/", "/thank-you?cta=whatsapp"]) {
    it(path, async () => {
      const nonces: string[] = [];
      for (let i = 0; i < 2; i++) {
        const response = await raw(path, { "sec-gpc": "1" });
        const policy = response.headers["content-security-policy"] ?? "";
        const nonce = /script-src 'nonce-([A-Za-z0-9+/=]{24})' 'strict-dynamic'/.exec(policy)?.[1];
        expect(nonce, policy).toBeDefined();
        for (const directive of [
          "object-src 'none'",
          "form-action 'self'",
          "connect-src 'self'",
          "img-src 'self' data:",
        ]) {
          expect(policy).toContain(directive);
        }
        expect(policy).not.toContain("ws:");
        const html = response.body.toString();
        const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
        const executable = scripts.filter((tag) => !tag.includes('type="application/ld+json"'));
        expect(executable.length).toBeGreaterThan(2);
        for (const tag of executable) expect(tag).toContain(`nonce="${nonce}"`);
        // The page's code is held until the first paint (document/boot-script.server.ts): every
        // preload is for no media, and Remix's module script does not run as soon as it can.
        const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
        expect(preloads.length).toBeGreaterThan(3);
        for (const link of preloads) expect(link).toContain('media="not all"');
        expect(html).not.toMatch(/<script[^>]*type="module"[^>]*async/);
        expect(html).toContain('observe({ type: "paint" })');
        nonces.push(nonce ?? "");
      }
      expect(nonces[0]).not.toBe(nonces[1]);
    });
  }
});

describe("caching", () => {
  it("keeps documents out of shared caches and leads and events out of every cache", async () => {
    expect((await raw("/")).headers["cache-control"]).toBe("private, no-cache");
    expect((await raw("/share")).headers["cache-control"]).toBe("private, no-cache");
    expect((await raw("/thank-you?cta=demo", { "sec-gpc": "1" })).headers["cache-control"]).toBe(
      "no-store",
    );
    expect((await raw("/api/events")).headers["cache-control"]).toBe("no-store");
    expect((await raw("/no/such/page")).headers["cache-control"]).toBe("no-store");
    expect((await raw("/sitemap.xml")).headers["cache-control"]).toBe("public, max-age=3600");
    expect((await raw("/robots.txt")).headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("serves a cached page gzipped, with the nonce of its own response inside", async () => {
    // The first asks Remix (compressed as the client prefers); the next are answered from memory.
    const responses = [];
    for (let n = 0; n < 3; n++) {
      responses.push(await raw("/?source=cache-test", { "accept-encoding": "gzip, br" }));
    }
    expect(responses.map((response) => response.headers["content-encoding"])).toEqual([
      "br",
      "gzip",
      "gzip",
    ]);
    const nonces = new Set<string>();
    for (const response of responses) {
      expect(response.headers.vary).toMatch(/Accept-Encoding/);
      // The language offer depends on both: no shared cache may mix the two variants.
      expect(response.headers.vary).toMatch(/Accept-Language/);
      expect(response.headers.vary).toMatch(/Cookie/);
      const html = (
        response.headers["content-encoding"] === "br"
          ? brotliDecompressSync(response.body)
          : gunzipSync(response.body)
      ).toString();
      const nonce = /'nonce-([^']+)'/.exec(response.headers["content-security-policy"] ?? "")?.[1];
      expect(html).toContain(`nonce="${nonce}"`);
      expect(html.match(/nonce="([^"]+)"/g)?.every((n) => n === `nonce="${nonce}"`)).toBe(true);
      expect(html).toContain("/thank-you?cta=whatsapp&amp;source=cache-test");
      nonces.add(String(nonce));
    }
    expect(nonces.size).toBe(3);
    const plain = await raw("/?source=cache-test", { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toContain("<h1");
  });

  it("serves the browser build immutable for a year, brotli to browsers that take it", async () => {
    const html = (await raw("/", { "accept-encoding": "identity" })).body.toString();
    const scripts = [...html.matchAll(/<link rel="modulepreload"[^>]*href="(\/build\/[^"]+)"/g)];
    expect(scripts.length).toBeGreaterThan(3);
    for (const [, href] of scripts) {
      const chrome = await raw(href ?? "", { "accept-encoding": "gzip, deflate, br, zstd" });
      expect(chrome.status).toBe(200);
      expect(chrome.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(chrome.headers["content-encoding"]).toBe("br");
      expect(chrome.headers["content-security-policy"]).toBe(
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
      );
      const plain = await raw(href ?? "", { "accept-encoding": "identity" });
      expect(brotliDecompressSync(chrome.body).equals(plain.body)).toBe(true);
    }
  });

  it("gives a page's crawler preview its own cached rendering", async () => {
    const person = await directFetch(`${site.origin}/`, {
      headers: { "user-agent": IPHONE_SAFARI_17 },
    });
    const whatsapp = await directFetch(`${site.origin}/`, {
      headers: { "user-agent": WHATSAPP_PREVIEW },
    });
    const description = (html: string) =>
      /<meta property="og:description" content="([^"]*)"/.exec(html)?.[1];
    expect(description(await person.text())).not.toBe(description(await whatsapp.text()));
  });
});
