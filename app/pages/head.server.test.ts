import type { MetaDescriptor } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { heads as arHeads } from "~/content/ar/heads";
import { heads } from "~/content/heads";
import { headFor } from "~/pages/head.server";
import { getConfig } from "~/platform/config.server";

const site = getConfig().siteUrl;
const request = (path: string, userAgent = "Mozilla/5.0") =>
  new Request(`http://internal.example${path}`, { headers: { "user-agent": userAgent } });
const content = (tags: MetaDescriptor[], key: string) =>
  (tags.find((t) => "property" in t && t.property === key) as { content?: string } | undefined)
    ?.content;
const href = (tags: MetaDescriptor[], rel: string, hrefLang?: string) =>
  (
    tags.find(
      (t) => "rel" in t && t.rel === rel && (hrefLang === undefined || t.hrefLang === hrefLang),
    ) as { href?: string } | undefined
  )?.href;

describe("headFor", () => {
  it("picks the page's copy in the language of the requested path", () => {
    expect(headFor(request("/share"), undefined, "share")).toContainEqual({
      title: heads.share.title,
    });
    expect(headFor(request("/ar/share"), undefined, "share")).toContainEqual({
      title: arHeads.share.title,
    });
    expect(headFor(request("/ar"), undefined, "home")).toContainEqual({
      title: arHeads.home.title,
    });
    expect(content(headFor(request("/ar"), undefined, "home"), "og:locale")).toBe("ar_AE");
    expect(content(headFor(request("/"), undefined, "home"), "og:locale")).toBe("en_AE");
  });

  it("makes the canonical the page's own address in its language, with no query", () => {
    expect(href(headFor(request("/ar/share?utm_source=x"), undefined, "share"), "canonical")).toBe(
      `${site}/ar/share`,
    );
    expect(href(headFor(request("/ar/?x=1"), undefined, "home"), "canonical")).toBe(`${site}/ar`);
    expect(href(headFor(request("/share/"), undefined, "share"), "canonical")).toBe(
      `${site}/share`,
    );
    expect(
      href(headFor(request("/ar/sitemap"), undefined, "sitemap"), "alternate", "x-default"),
    ).toBe(`${site}/sitemap`);
  });

  it("words the description for the crawler that asks, in the page's language", () => {
    const tags = headFor(request("/ar", "WhatsApp/2.23.20.0 A"), undefined, "home");
    expect(content(tags, "og:description")).toBe(arHeads.home.description.whatsapp);
  });

  it("keeps /thank-you and the not-found page out of search results in both languages", () => {
    for (const [path, page] of [
      ["/thank-you?cta=demo", "thankYou"],
      ["/ar/thank-you", "thankYou"],
      ["/no/such/page", "notFound"],
      ["/ar/no/such/page", "notFound"],
    ] as const) {
      const tags = headFor(request(path), undefined, page);
      expect(tags, path).toContainEqual({ name: "robots", content: "noindex, follow" });
      expect(href(tags, "canonical"), path).toBeUndefined();
      expect(href(tags, "alternate"), path).toBeUndefined();
    }
    expect(content(headFor(request("/ar/no/such"), undefined, "notFound"), "og:url")).toBe(
      `${site}/ar/no/such`,
    );
  });

  it("leaves the JSON-LD to the page's body, so the loader data does not carry it twice", () => {
    for (const path of ["/", "/ar", "/share"]) {
      expect(
        headFor(request(path), undefined, path === "/share" ? "share" : "home").some(
          (t) => "script:ld+json" in t,
        ),
      ).toBe(false);
    }
  });
});
