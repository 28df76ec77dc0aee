import type { NextFunction, Request, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { createDocumentCache, type DocumentCache, documentKey } from "./document-cache";

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1";

describe("documentKey", () => {
  const key = (path: string, agent = PHONE, more: Record<string, string> = {}) =>
    documentKey(new URL(`http://localhost${path}`), new Headers({ "user-agent": agent, ...more }));

  it("keys a page by what it shows of the request: path, preview wording, campaign", () => {
    expect(key("/")).toBe("/ default  ");
    expect(key("/share?platform=whatsapp")).toBe("/share whatsapp  ");
    expect(key("/?utm_source=IG&utm_campaign=launch")).toBe(
      "/ default  ?utm_source=IG&utm_campaign=launch",
    );
    expect(key("/?source=WA")).toBe("/ whatsapp  ?source=WA");
    expect(key("/", "WhatsApp/2.23.20.0 A")).toBe("/ whatsapp  ");
  });

  it("gives one entry to URLs the page shows alike", () => {
    const home = key("/?source=instagram");
    for (const variant of [
      "/?source=instagram&ref=abc123",
      "/?utm_nope=1&source=instagram&ref=2",
      "/?source=instagram&source=facebook",
      "/?source=%20instagram%20",
      "/?source=instagram%00",
      "/?source=%E2%80%AEinstagram",
    ]) {
      expect(key(variant), variant).toBe(home);
    }
    for (const untagged of ["/?source=", "/?source=%20", "/?source=direct", "/?ref=x"]) {
      expect(key(untagged), untagged).toBe(key("/"));
    }
    expect(key("/?platform=<script>")).toBe(key("/"));
    // Free text, however it was encoded; cut where every page cuts it.
    expect(key("/?utm_campaign=Ramadan+Promo%20%202026")).toBe(
      key("/?utm_campaign=Ramadan%20Promo%202026"),
    );
    expect(key(`/?source=${"x".repeat(300)}`)).toBe(key(`/?source=${"x".repeat(100)}`));
  });

  it("keys each language apart, and whether the page offers the other one", () => {
    expect(key("/ar")).toBe("/ar default  ");
    const arabicReader = { "accept-language": "ar-AE,ar;q=0.9" };
    expect(key("/", PHONE, arabicReader)).toBe("/ default ar ");
    expect(key("/ar", PHONE, arabicReader)).toBe(key("/ar"));
    // Dismissed: the same page as everyone else's.
    expect(key("/", PHONE, { ...arabicReader, cookie: "darb_lang_hint=off" })).toBe(key("/"));
  });

  it("keys apart what the lead and language links pass on of the campaign, as written", () => {
    expect(key("/?source=ig&utm_content=one")).not.toBe(key("/?source=ig&utm_content=two"));
    expect(key("/?source=ig&utm_term=a")).not.toBe(key("/?source=ig"));
    expect(key("/?source=ig&utm_content=one&ref=x")).toBe(key("/?utm_content=one&source=ig"));
    // Words are kept as written, so their letter case is part of the page.
    expect(key("/?source=IG")).not.toBe(key("/?source=ig"));
    expect(key("/?utm_campaign=%D8%B1%D9%85%D8%B6%D8%A7%D9%86")).toBe(
      "/ default  ?utm_campaign=%D8%B1%D9%85%D8%B6%D8%A7%D9%86",
    );
  });

  it("keeps a campaign's words from breaking the key into other parts", () => {
    const spaced = key("/?utm_campaign=a%20b%20c&utm_content=x%0Ay");
    expect(spaced).toBe("/ default  ?utm_campaign=a+b+c&utm_content=x+y");
    expect(spaced?.split(" ")).toHaveLength(4);
  });

  it("renders a page with an ad's click id for its request alone", () => {
    for (const id of ["gclid", "gbraid", "wbraid", "fbclid", "ttclid", "ScCid"]) {
      expect(key(`/?source=instagram&${id}=abc123`), id).toBeNull();
      expect(key(`/?${id}=abc123`), id).toBeNull();
    }
    // An empty one is no click id: the page shows none; nor is one too long to be one.
    expect(key("/?source=instagram&fbclid=")).toBe(key("/?source=instagram"));
    expect(key(`/?source=instagram&gclid=${"g".repeat(501)}`)).toBe(key("/?source=instagram"));
  });

  it("renders other pages, data requests and look-alike paths for the request alone", () => {
    expect(key("/thank-you?cta=email")).toBeNull();
    expect(key("/nope")).toBeNull();
    expect(key("/?_data=root")).toBeNull();
    expect(key("/ar/")).toBeNull();
    // Read as @remix-run/express reads it: a path, never a host.
    expect(key("//evil.example")).toBeNull();
  });
});

describe("createDocumentCache", () => {
  const NONCE = "n".repeat(24);

  /** Renders `path` into the cache as the document pipeline would, if it has a key. */
  function keep(cache: DocumentCache, path: string, html = `<p>${path}</p>`) {
    const key = documentKey(
      new URL(`http://localhost${path}`),
      new Headers({ "user-agent": PHONE }),
    );
    if (key === null) throw new Error(`${path} has no key`);
    const headers = new Headers({ "content-type": "text/html; charset=utf-8" });
    cache.keeper(key).keep(html, headers);
  }

  /** The body the cache answers a GET for `path` with, or null when the request goes on to Remix. */
  function served(cache: DocumentCache, path: string): string | null {
    const headers: Record<string, string> = {};
    let body: Buffer | undefined;
    let passed = false;
    const request = { method: "GET", url: path, headers: { "user-agent": PHONE } };
    const response = {
      locals: { nonce: NONCE } as Record<string, unknown>,
      statusCode: 0,
      setHeader: (name: string, value: string) => {
        headers[name.toLowerCase()] = String(value);
      },
      getHeader: (name: string) => headers[name.toLowerCase()],
      end: (chunk?: Buffer) => {
        body = chunk;
      },
    };
    const next: NextFunction = () => {
      passed = true;
    };
    cache.middleware(request as unknown as Request, response as unknown as Response, next);
    return passed ? null : (body?.toString("utf8") ?? "");
  }

  it("answers a kept page from memory, and the same page for its variants", () => {
    const cache = createDocumentCache();
    keep(cache, "/?utm_campaign=Eid&source=ig");
    keep(cache, "/share");
    expect(cache.size()).toEqual({ untagged: 1, tagged: 1 });
    expect(served(cache, "/?source=ig&utm_campaign=Eid&ref=1")).toBe(
      "<p>/?utm_campaign=Eid&source=ig</p>",
    );
    expect(served(cache, "/share?utm_nope=1")).toBe("<p>/share</p>");
    expect(served(cache, "/?source=ig&utm_campaign=eid")).toBeNull();
    expect(served(cache, "/?source=ig&utm_campaign=Eid&gclid=x")).toBeNull();
  });

  it("keeps a stream of made-up campaigns in the tagged pool, never pushing out untagged pages", () => {
    const cache = createDocumentCache({ maxEntries: 200 });
    keep(cache, "/");
    keep(cache, "/ar/share");
    for (let n = 0; n < 1000; n++) keep(cache, `/?utm_campaign=made-up-${n}`);
    expect(cache.size()).toEqual({ untagged: 2, tagged: 200 });
    expect(served(cache, "/")).toBe("<p>/</p>");
    expect(served(cache, "/ar/share")).toBe("<p>/ar/share</p>");
    // The tagged pool dropped its least recently used pages, and kept the latest.
    expect(served(cache, "/?utm_campaign=made-up-0")).toBeNull();
    expect(served(cache, "/?utm_campaign=made-up-799")).toBeNull();
    expect(served(cache, "/?utm_campaign=made-up-800")).toBe("<p>/?utm_campaign=made-up-800</p>");
    expect(served(cache, "/?utm_campaign=made-up-999")).toBe("<p>/?utm_campaign=made-up-999</p>");
  });

  it("notes when the request came, and serves a kept page only until the time it gives", () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ["Date"] });
    try {
      const cache = createDocumentCache();
      const key = documentKey(new URL("http://localhost/"), new Headers({ "user-agent": PHONE }));
      const keeper = cache.keeper(key ?? "");
      expect(keeper.since).toBe(1_000_000);
      vi.setSystemTime(1_000_200);
      keeper.keep("<p>dated</p>", new Headers(), keeper.since + 1000);
      vi.setSystemTime(1_000_999);
      expect(served(cache, "/")).toBe("<p>dated</p>");
      vi.setSystemTime(1_001_000);
      expect(served(cache, "/")).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("counts source=direct alone as untagged", () => {
    const cache = createDocumentCache({ maxEntries: 1 });
    keep(cache, "/?source=direct");
    keep(cache, "/?source=ig");
    keep(cache, "/?source=tiktok");
    expect(cache.size()).toEqual({ untagged: 1, tagged: 1 });
    expect(served(cache, "/")).toBe("<p>/?source=direct</p>");
  });
});
