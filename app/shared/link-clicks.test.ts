import { describe, expect, it } from "vitest";
import {
  eventAttributes,
  languageHref,
  leadHrefForVisit,
  leavesPage,
  linkEvent,
  PAGE_LINK,
  routedPath,
} from "~/shared/link-clicks";

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
  /** A stand-in for a clicked <a>: attributes, its resolved href and its text. */
  const clicked = (href: string, attributes: Record<string, string>, text = "") => ({
    href: new URL(href, ORIGIN).href,
    textContent: text,
    getAttribute: (name: string) => attributes[name] ?? null,
  });
  const wa = "https://wa.me/971585550134?text=Hi";

  it("reads a lead link's event off the link: kind, words, placement, where it leads", () => {
    const href = `/thank-you?cta=whatsapp&source=ig&redirect=${encodeURIComponent(wa)}`;
    const attributes = eventAttributes("external_link_click", "plan-pro");
    expect(linkEvent(clicked(href, attributes, "  Choose Pro "), "/")).toEqual({
      name: "external_link_click",
      params: { cta_type: "whatsapp", cta_text: "Choose Pro", placement: "plan-pro", link_url: wa },
    });
    const mail = clicked("/ar/thank-you?cta=email&source=direct", {
      ...eventAttributes("email_click", "header"),
      "aria-label": "راسلنا",
    });
    expect(linkEvent(mail, "/ar")).toEqual({
      name: "email_click",
      params: { cta_type: "email", cta_text: "راسلنا", placement: "header" },
    });
  });

  it("reads a direct mailto: link and a section link", () => {
    const footer = clicked(
      "mailto:hello@darb.ae",
      eventAttributes("email_click", "footer"),
      "hello@darb.ae",
    );
    expect(linkEvent(footer, "/share")?.params).toEqual({
      cta_type: "email",
      cta_text: "hello@darb.ae",
      placement: "footer",
    });
    expect(
      linkEvent(clicked("/ar#faq", eventAttributes("navigation_click")), "/ar/sitemap"),
    ).toEqual({
      name: "navigation_click",
      params: { target_section: "faq", from_path: "/ar/sitemap" },
    });
  });

  it("clips words and addresses to GA4's 100 characters", () => {
    const long = `${wa}${"x".repeat(200)}`;
    const event = linkEvent(
      clicked(
        `/thank-you?cta=demo&redirect=${encodeURIComponent(long)}`,
        eventAttributes("external_link_click", "hero"),
        "y".repeat(300),
      ),
      "/",
    );
    expect(event?.params.cta_text).toHaveLength(100);
    expect(event?.params.link_url).toHaveLength(100);
  });

  it("reports nothing for names outside the browser's vocabulary, or no name", () => {
    expect(
      linkEvent(clicked("/thank-you?cta=email", { "data-event": "generate_lead" }), "/"),
    ).toBeNull();
    expect(linkEvent(clicked("/share", {}), "/")).toBeNull();
  });

  it("sends clicks that leave the page at once, and batches same-page ones", () => {
    expect(leavesPage({ name: "external_link_click", params: {} })).toBe(true);
    expect(leavesPage({ name: "navigation_click", params: {} })).toBe(false);
  });
});

describe("leadHrefForVisit", () => {
  it("puts the visit's source and the page clicked from on lead links, in either language", () => {
    const on = (pathname: string, source = "instagram") => ({ source, pathname });
    expect(leadHrefForVisit("/thank-you?cta=email&source=direct", on("/share"), ORIGIN)).toBe(
      "/thank-you?cta=email&source=instagram&returnUrl=%2Fshare",
    );
    expect(
      leadHrefForVisit(
        "/ar/thank-you?cta=demo&source=direct&returnUrl=%2Far%2Fshare",
        on("/ar", "tiktok"),
        ORIGIN,
      ),
    ).toBe("/ar/thank-you?cta=demo&source=tiktok&returnUrl=%2Far");
    // From the English home page there is no way back to name: the thank-you page's default.
    expect(
      leadHrefForVisit("/thank-you?cta=email&source=ig&returnUrl=%2Fshare", on("/", "ig"), ORIGIN),
    ).toBe("/thank-you?cta=email&source=ig");
  });

  it("leaves every other link, and a lead link that is already right, as it is", () => {
    const visit = { source: "ig", pathname: "/" };
    expect(leadHrefForVisit("/share", visit, ORIGIN)).toBe("/share");
    expect(leadHrefForVisit("https://evil.example/thank-you?source=x", visit, ORIGIN)).toBe(
      "https://evil.example/thank-you?source=x",
    );
    expect(leadHrefForVisit("/thank-you?source=ig", visit, ORIGIN)).toBe("/thank-you?source=ig");
  });
});

describe("languageHref", () => {
  const switchTo = (locale: string) => link({ hreflang: locale, href: "/" });
  const at = (pathname: string, search = "", hash = "") => ({ pathname, search, hash });

  it("leads to the page now shown, with its query and hash, in the link's language", () => {
    expect(languageHref(switchTo("ar"), at("/share", "?platform=whatsapp", "#top"))).toBe(
      "/ar/share?platform=whatsapp#top",
    );
    expect(languageHref(switchTo("en"), at("/ar"))).toBe("/");
    expect(languageHref(switchTo("en"), at("/ar/sitemap"))).toBe("/sitemap");
  });

  it("never leads off the site, and ignores links in no language of ours", () => {
    expect(languageHref(switchTo("en"), at("/ar//evil.example"))).toBe("/evil.example");
    expect(languageHref(switchTo("en"), at("/ar/\\evil.example"))).toBe("/evil.example");
    expect(languageHref(switchTo("fr"), at("/"))).toBeNull();
  });
});

describe("routedPath", () => {
  const page = (href: string, more: Record<string, string> = {}) =>
    link({ href, [PAGE_LINK]: "", ...more });

  it("routes a plain click on a page link, keeping its query and hash", () => {
    expect(routedPath(click(), page("/ar/share?platform=x#top"), ORIGIN, "/ar")).toBe(
      "/ar/share?platform=x#top",
    );
    expect(routedPath(click(), page("/#faq"), ORIGIN, "/share")).toBe("/#faq");
  });

  it("leaves the browser what it should do itself", () => {
    expect(routedPath(click({ ctrlKey: true }), page("/share"), ORIGIN, "/")).toBeNull();
    expect(routedPath(click({ metaKey: true }), page("/share"), ORIGIN, "/")).toBeNull();
    expect(routedPath(click({ button: 1 }), page("/share"), ORIGIN, "/")).toBeNull();
    expect(routedPath(click({ defaultPrevented: true }), page("/share"), ORIGIN, "/")).toBeNull();
    expect(routedPath(click(), page("/share", { target: "_blank" }), ORIGIN, "/")).toBeNull();
    expect(routedPath(click(), page("/share", { download: "" }), ORIGIN, "/")).toBeNull();
    // Not a page link (a lead link, say): a full page load.
    expect(routedPath(click(), link({ href: "/thank-you?cta=email" }), ORIGIN, "/")).toBeNull();
    // Another site, even if marked.
    expect(routedPath(click(), page("https://evil.example/"), ORIGIN, "/")).toBeNull();
    // Another language: a new document, with its own lang, dir and words.
    expect(routedPath(click(), page("/ar/share"), ORIGIN, "/share")).toBeNull();
    expect(routedPath(click(), page("/"), ORIGIN, "/ar")).toBeNull();
  });
});
