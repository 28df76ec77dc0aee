import type { MetaDescriptor } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { heads as arHeads } from "~/content/ar/heads";
import { heads } from "~/content/heads";
import { headFor } from "~/pages/head.server";
import { getConfig } from "~/settings.server";
import { testContext } from "../../tests/support/request-context";

const site = getConfig().siteUrl;
const context = testContext();
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
    expect(headFor(request("/share"), context, "share")).toContainEqual({
      title: heads.share.title,
    });
    expect(headFor(request("/ar/share"), context, "share")).toContainEqual({
      title: arHeads.share.title,
    });
    expect(headFor(request("/ar"), context, "home")).toContainEqual({
      title: arHeads.home.title,
    });
    expect(content(headFor(request("/ar"), context, "home"), "og:locale")).toBe("ar_AE");
    expect(content(headFor(request("/"), context, "home"), "og:locale")).toBe("en_AE");
  });

  it("makes the canonical the page's own address in its language, with no query", () => {
    expect(href(headFor(request("/ar/share?utm_source=x"), context, "share"), "canonical")).toBe(
      `${site}/ar/share`,
    );
    expect(href(headFor(request("/ar/?x=1"), context, "home"), "canonical")).toBe(`${site}/ar`);
    expect(href(headFor(request("/share/"), context, "share"), "canonical")).toBe(`${site}/share`);
    expect(
      href(headFor(request("/ar/sitemap"), context, "sitemap"), "alternate", "x-default"),
    ).toBe(`${site}/sitemap`);
  });

  it("words the description for the crawler that asks, in the page's language", () => {
    const tags = headFor(request("/ar", "WhatsApp/2.23.20.0 A"), context, "home");
    expect(content(tags, "og:description")).toBe(arHeads.home.description.whatsapp);
  });

  it("keeps /thank-you and the not-found page out of search results in both languages", () => {
    for (const [path, page] of [
      ["/thank-you?cta=demo", "thankYou"],
      ["/ar/thank-you", "thankYou"],
      ["/no/such/page", "notFound"],
      ["/ar/no/such/page", "notFound"],
    ] as const) {
      const tags = headFor(request(path), context, page);
      expect(tags, path).toContainEqual({ name: "robots", content: "noindex, follow" });
      expect(href(tags, "canonical"), path).toBeUndefined();
      expect(href(tags, "alternate"), path).toBeUndefined();
    }
    expect(content(headFor(request("/ar/no/such"), context, "notFound"), "og:url")).toBe(
      `${site}/ar/no/such`,
    );
  });

  it("leaves the JSON-LD to the page's body, so the loader data does not carry it twice", () => {
    for (const path of ["/", "/ar", "/share"]) {
      expect(
        headFor(request(path), context, path === "/share" ? "share" : "home").some(
          (t) => "script:ld+json" in t,
        ),
      ).toBe(false);
    }
  });
});
