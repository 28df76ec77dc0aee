import { describe, expect, it } from "vitest";
import {
  eventAttributes,
  leavesPage,
  linkEvent,
  PAGE_LINK,
  routedPath,
  withVisitSource,
} from "~/lib/link-clicks";

const ORIGIN = "https://darb.example";

/** A stand-in for an <a>: its attributes and its resolved href. */
function link(attributes: Record<string, string>, href = attributes.href ?? "/") {
  return {
    href: new URL(href, ORIGIN).href,
    getAttribute: (name: string) => attributes[name] ?? null,
  };
}

const click = (overrides: Partial<Parameters<typeof routedPath>[0]> = {}) => ({
  button: 0,
  metaKey: false,
  altKey: false,
  ctrlKey: false,
  shiftKey: false,
  defaultPrevented: false,
  ...overrides,
});

describe("link events", () => {
  it("round-trips through the attributes a link renders", () => {
    const event = { name: "cta_click" as const, params: { cta_type: "demo", placement: "hero" } };
    expect(linkEvent(link(eventAttributes(event)))).toEqual(event);
    expect(eventAttributes(null)).toEqual({});
  });

  it("reports nothing for names outside the vocabulary or params that do not parse", () => {
    expect(
      linkEvent(link({ "data-event": "generate_lead", "data-event-params": "{}" })),
    ).toBeNull();
    expect(linkEvent(link({ "data-event": "cta_click", "data-event-params": "{oops" }))).toBeNull();
    expect(linkEvent(link({ "data-event": "cta_click", "data-event-params": "[1]" }))).toBeNull();
    expect(linkEvent(link({}))).toBeNull();
  });

  it("keeps only string params", () => {
    const attributes = { "data-event": "cta_click", "data-event-params": '{"a":"x","b":2,"c":{}}' };
    expect(linkEvent(link(attributes))?.params).toEqual({ a: "x" });
  });

  it("sends clicks that leave the page at once, and batches same-page ones", () => {
    expect(leavesPage({ name: "external_link_click", params: {} })).toBe(true);
    expect(leavesPage({ name: "navigation_click", params: {} })).toBe(false);
  });
});

describe("withVisitSource", () => {
  it("puts the visit's source on lead links, in either language", () => {
    expect(withVisitSource("/thank-you?cta=email&source=direct", "instagram", ORIGIN)).toBe(
      "/thank-you?cta=email&source=instagram",
    );
    expect(withVisitSource("/ar/thank-you?cta=demo&source=direct", "tiktok", ORIGIN)).toBe(
      "/ar/thank-you?cta=demo&source=tiktok",
    );
  });

  it("leaves every other link, and a lead link that is already right, as it is", () => {
    expect(withVisitSource("/share", "instagram", ORIGIN)).toBe("/share");
    expect(withVisitSource("https://evil.example/thank-you?source=x", "ig", ORIGIN)).toBe(
      "https://evil.example/thank-you?source=x",
    );
    expect(withVisitSource("/thank-you?source=ig", "ig", ORIGIN)).toBe("/thank-you?source=ig");
  });
});

describe("routedPath", () => {
  const page = (href: string, more: Record<string, string> = {}) =>
    link({ href, [PAGE_LINK]: "", ...more });

  it("routes a plain click on a page link, keeping its query and hash", () => {
    expect(routedPath(click(), page("/ar/share?platform=x#top"), ORIGIN)).toBe(
      "/ar/share?platform=x#top",
    );
  });

  it("leaves the browser what it should do itself", () => {
    expect(routedPath(click({ ctrlKey: true }), page("/share"), ORIGIN)).toBeNull();
    expect(routedPath(click({ metaKey: true }), page("/share"), ORIGIN)).toBeNull();
    expect(routedPath(click({ button: 1 }), page("/share"), ORIGIN)).toBeNull();
    expect(routedPath(click({ defaultPrevented: true }), page("/share"), ORIGIN)).toBeNull();
    expect(routedPath(click(), page("/share", { target: "_blank" }), ORIGIN)).toBeNull();
    expect(routedPath(click(), page("/share", { download: "" }), ORIGIN)).toBeNull();
    // Not a page link (a lead link, say): a full page load.
    expect(routedPath(click(), link({ href: "/thank-you?cta=email" }), ORIGIN)).toBeNull();
    // Another site, even if marked.
    expect(routedPath(click(), page("https://evil.example/"), ORIGIN)).toBeNull();
  });
});
