import { describe, expect, it } from "vitest";
import {
  COLLECT_AFTER_MS,
  createRenderCache,
  FRESH_MS,
  renderCacheKey,
} from "~/document/render-cache.server";
import { suggestedLocale } from "~/server/language-hint.server";
import { localeOfPath } from "~/shared/locale";
import { choosePlatform } from "~/shared/platform";

function clock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe("createRenderCache", () => {
  it("serves a page while fresh, then asks for a new render", () => {
    const { now, advance } = clock();
    const cache = createRenderCache<string>({ now });
    cache.set("/", "<html>1</html>");
    advance(FRESH_MS - 1);
    expect(cache.get("/")).toBe("<html>1</html>");
    advance(1);
    expect(cache.get("/")).toBeUndefined();
  });

  it("drops what has gone unused for five minutes, keeps what is used", () => {
    const { now, advance } = clock();
    const cache = createRenderCache<string>({ now });
    cache.set("/a", "a");
    advance(2 * 60_000);
    cache.set("/b", "b");
    advance(COLLECT_AFTER_MS - 2 * 60_000);
    cache.collect();
    expect(cache.size()).toBe(1);
    expect(cache.get("/b")).toBe("b");
  });

  it("holds at most maxEntries, evicting the least recently used", () => {
    const cache = createRenderCache<string>({ maxEntries: 2 });
    cache.set("/a", "a");
    cache.set("/b", "b");
    cache.get("/a");
    cache.set("/c", "c");
    expect(cache.size()).toBe(2);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")).toBe("a");
    expect(cache.get("/c")).toBe("c");
  });
});

describe("renderCacheKey", () => {
  const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1";
  /** What the root loader decides for such a request, then the key built from it. */
  const key = (path: string, agent = PHONE, more: Record<string, string> = {}) => {
    const url = new URL(path, "https://darb.example");
    const headers = new Headers({ "user-agent": agent, ...more });
    return renderCacheKey(url, {
      platform: choosePlatform(url.searchParams, agent),
      suggest: suggestedLocale(headers, localeOfPath(url.pathname)) !== null,
    });
  };

  it("keys a page by what it shows of the request: path, preview wording, campaign", () => {
    expect(key("/")).toBe("/ default direct    ");
    expect(key("/share?platform=whatsapp")).toBe("/share whatsapp direct    ");
    expect(key("/?utm_source=IG&utm_campaign=launch")).toBe(
      "/ default ig  launch  ?utm_source=ig&utm_campaign=launch",
    );
    expect(key("/", "WhatsApp/2.23.20.0 A")).toBe("/ whatsapp direct    ");
  });

  it("gives one entry to URLs the page shows alike", () => {
    const home = key("/?source=instagram");
    for (const variant of [
      "/?source=Instagram",
      "/?source=instagram&ref=abc123",
      "/?utm_nope=1&source=instagram&ref=2",
      "/?source=instagram&source=facebook",
    ]) {
      expect(key(variant), variant).toBe(home);
    }
    expect(key("/?source=%zz")).toBe(key("/"));
    expect(key(`/?source=${"x".repeat(300)}`)).toBe(key("/"));
    expect(key("/?platform=<script>")).toBe(key("/"));
  });

  it("keys each language apart, and whether the page offers the other one", () => {
    expect(key("/ar")).toBe("/ar default direct    ");
    const arabicReader = { "accept-language": "ar-AE,ar;q=0.9" };
    expect(key("/", PHONE, arabicReader)).toBe("/ default direct   ar ");
    expect(key("/ar", PHONE, arabicReader)).toBe(key("/ar"));
    // Dismissed: the same page as everyone else's.
    expect(key("/", PHONE, { ...arabicReader, cookie: "darb_lang_hint=off" })).toBe(key("/"));
  });

  it("keys apart what the language links pass on of the campaign", () => {
    expect(key("/?source=ig&utm_content=one")).not.toBe(key("/?source=ig&utm_content=two"));
    expect(key("/?source=ig&utm_term=a")).not.toBe(key("/?source=ig"));
    expect(key("/?source=ig&utm_content=one&ref=x")).toBe(key("/?utm_content=one&source=IG"));
  });

  it("renders a page with an ad's click id for its request alone", () => {
    for (const id of ["gclid", "gbraid", "wbraid", "fbclid", "ttclid"]) {
      expect(key(`/?source=instagram&${id}=abc123`), id).toBeNull();
    }
    // An empty one is no click id: the page shows none.
    expect(key("/?source=instagram&fbclid=")).toBe(key("/?source=instagram"));
  });

  it("renders other pages for the request alone", () => {
    expect(key("/thank-you?cta=email")).toBeNull();
    expect(key("/nope")).toBeNull();
  });
});
