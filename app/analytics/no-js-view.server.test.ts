import { describe, expect, it } from "vitest";
import { viewImageSrc } from "~/analytics/no-js-view";
import { recordNoJsView, viewedPath } from "~/analytics/no-js-view.server";
import type { RequestContext } from "~/platform/request-context.server";
import { getConfig } from "~/settings.server";
import type { Experiment } from "~/shared/experiment";
import { createServices } from "../../server/services";

const HERO: Experiment = {
  id: "hero_headline",
  status: "running",
  traffic: 1,
  variants: [
    { id: "control", weight: 50, copy: {} },
    { id: "cashback_first", weight: 50, copy: { "hero.headline": { en: "x", ar: "س" } } },
  ],
};

/** A request context as the server makes it, with the analytics lines kept here. */
function contextFor(clientAddress: string) {
  const lines: Array<{ name: string; params: Record<string, unknown>; client_id: string }> = [];
  const services = createServices({}, { writeLine: (line) => lines.push(JSON.parse(line)) });
  const config = { ...getConfig(), siteUrl: "https://darb.example", experiments: [HERO] };
  const context: RequestContext = {
    clientAddress,
    nonce: "n",
    config,
    services,
    documentKeeper: null,
  };
  return { context, lines, services };
}

const PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 Chrome/126 Mobile";

/** The image's request as a browser without JavaScript makes it, from the page `referer`. */
function image(src: string, referer: string | null, headers: Record<string, string> = {}) {
  return new Request(`https://darb.example${src}`, {
    headers: {
      "user-agent": PHONE,
      "sec-fetch-dest": "image",
      "sec-fetch-site": "same-origin",
      ...(referer ? { referer } : {}),
      ...headers,
    },
  });
}

describe("the no-JS view's image", () => {
  it("names the page and the variant it shows, the same for every visitor of a kept page", () => {
    expect(viewImageSrc("/")).toBe("/api/view?p=/");
    expect(viewImageSrc("/ar/share", "DRB-hero_headline-control")).toBe(
      "/api/view?p=/ar/share&exp=DRB-hero_headline-control",
    );
    // A 404's path as the browser escapes it, escaped once more and read back as it was.
    const src = viewImageSrc("/%D9%85?x&y=<z>");
    expect(new URL(src, "https://darb.example").searchParams.get("p")).toBe("/%D9%85?x&y=<z>");
  });

  it("reads a page's path, and nothing that is no path of this site", () => {
    for (const path of ["/", "/share", "/ar", "/%D9%85%D8%B1%D8%AD%D8%A8%D8%A7", "/a'b(c)"]) {
      expect(viewedPath(path), path).toBe(path);
    }
    for (const junk of [
      null,
      "",
      "share",
      "//evil.example",
      "/a?b",
      "/a#b",
      "/a\\b",
      "/<script>",
      '/a"b',
      "/a`b",
      "/{a}",
      "/a b",
      "/a\nb",
      "/ü",
      `/${"a".repeat(512)}`,
    ]) {
      expect(viewedPath(junk), String(junk)).toBeNull();
    }
  });
});

describe("recordNoJsView", () => {
  it("records page_view, campaign_details and the variant's impression once per visitor, session and page", async () => {
    const { context, lines } = contextFor("203.0.113.40");
    const landing = "https://darb.example/?utm_source=ig&utm_campaign=Eid&junk=1";
    const src = "/api/view?p=/&exp=DRB-hero_headline-cashback_first";
    expect(await recordNoJsView(context, image(src, landing))).toBe("counted");
    expect(lines.map((line) => line.name)).toEqual([
      "campaign_details",
      "page_view",
      "experience_impression",
    ]);
    const [details, view, impression] = lines;
    expect(details?.params).toMatchObject({ source: "ig", campaign: "Eid", language: "en" });
    expect(view?.params).toMatchObject({
      page_location: "https://darb.example/?utm_source=ig&utm_campaign=Eid&junk=1",
      source: "ig",
      campaign: "Eid",
      language: "en",
    });
    expect(impression?.params).toMatchObject({
      exp_variant_string: "DRB-hero_headline-cashback_first",
    });
    // One GA4 session for all three.
    expect(new Set(lines.map((line) => line.params.session_id)).size).toBe(1);
    // A reload is no new view; another page of the visit is.
    expect(await recordNoJsView(context, image(src, landing))).toBe("repeat");
    expect(await recordNoJsView(context, image("/api/view?p=/ar", "https://darb.example/ar"))).toBe(
      "counted",
    );
    expect(lines.map((line) => line.name).slice(3)).toEqual(["page_view"]);
    expect(lines[3]?.params).toMatchObject({ language: "ar" });
    expect(lines[3]?.params.session_id).toBe(view?.params.session_id);
  });

  it("takes the campaign only from the page itself, and no impression for a variant not running", async () => {
    const { context, lines } = contextFor("203.0.113.41");
    // The Referer is another page than the image names: its query is not this page's.
    const src = "/api/view?p=/share&exp=DRB-old_test-control";
    expect(await recordNoJsView(context, image(src, "https://darb.example/?utm_source=ig"))).toBe(
      "counted",
    );
    expect(lines.map((line) => [line.name, line.params.page_location])).toEqual([
      ["page_view", "https://darb.example/share"],
    ]);
  });

  it("on an untagged page, takes the campaign the browser kept from its last tagged visit", async () => {
    const { context, lines } = contextFor("203.0.113.43");
    const kept = `darb_campaign=utm_source=google&gclid=G1&at=${Date.now() - 86_400_000}`;
    const src = "/api/view?p=/";
    expect(
      await recordNoJsView(context, image(src, "https://darb.example/", { cookie: kept })),
    ).toBe("counted");
    expect(lines.map((line) => [line.name, line.params.source])).toEqual([
      ["campaign_details", "google"],
      ["page_view", "google"],
    ]);
    expect(lines[1]?.params.page_location).toBe("https://darb.example/");
  });

  it("counts nothing for bots, prefetches, Sec-GPC: 1, another site, or anything but an image", async () => {
    const { context, lines } = contextFor("203.0.113.42");
    const page = "https://darb.example/";
    const asks: Record<string, string>[] = [
      { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" },
      { "user-agent": "" },
      { "sec-purpose": "prefetch" },
      { "sec-gpc": "1" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-dest": "document" },
      { "sec-fetch-dest": "script" },
    ];
    for (const headers of asks) {
      expect(await recordNoJsView(context, image("/api/view?p=/", page, headers))).toBe(
        "not_tracked",
      );
    }
    // Without Sec-Fetch-Site (an older browser), the Referer must be this site's.
    const older = (referer: string | null) =>
      new Request("https://darb.example/api/view?p=/", {
        headers: { "user-agent": PHONE, ...(referer ? { referer } : {}) },
      });
    expect(await recordNoJsView(context, older("https://evil.example/"))).toBe("not_tracked");
    expect(await recordNoJsView(context, older(null))).toBe("not_tracked");
    const head = new Request("https://darb.example/api/view?p=/", {
      method: "HEAD",
      headers: { "user-agent": PHONE, "sec-fetch-site": "same-origin" },
    });
    expect(await recordNoJsView(context, head)).toBe("not_tracked");
    expect(lines).toEqual([]);
    expect(await recordNoJsView(context, older(page))).toBe("counted");
  });

  it("answers `bad` for an address no page makes, before anything is counted", async () => {
    const { context, lines } = contextFor("203.0.113.43");
    for (const src of [
      "/api/view",
      "/api/view?p=",
      "/api/view?p=//evil.example",
      "/api/view?p=x",
    ]) {
      expect(await recordNoJsView(context, image(src, "https://darb.example/")), src).toBe("bad");
    }
    expect(lines).toEqual([]);
  });
});
