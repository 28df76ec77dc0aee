import { describe, expect, it } from "vitest";
import {
  eventAttributes,
  languageHref,
  leadHrefForVisit,
  leavesPage,
  linkEvent,
  PAGE_LINK,
  routedPath,
} from "~/analytics/link-clicks";
import type { Campaign } from "~/shared/campaign";

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
    const mail = clicked("/ar/thank-you?cta=email", {
      ...eventAttributes("email_click", "header"),
      "aria-label": "راسلنا",
    });
    expect(linkEvent(mail, "/ar")).toEqual({
      name: "email_click",
      params: { cta_type: "email", cta_text: "راسلنا", placement: "header" },
    });
  });

  it("reads a lead link's event and placement off its address, which the lead keeps too", () => {
    const href = `/thank-you?cta=whatsapp&redirect=${encodeURIComponent(wa)}&pl=sticky`;
    expect(linkEvent(clicked(href, {}, "Get it"), "/")).toEqual({
      name: "external_link_click",
      params: { cta_type: "whatsapp", cta_text: "Get it", placement: "sticky", link_url: wa },
    });
    expect(linkEvent(clicked("/ar/thank-you?cta=email&pl=header", {}, "راسلنا"), "/ar")).toEqual({
      name: "email_click",
      params: { cta_type: "email", cta_text: "راسلنا", placement: "header" },
    });
    // A link without a placement on its address is no lead link: it says its event itself.
    expect(linkEvent(clicked("/thank-you?cta=email", {}), "/")).toBeNull();
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
  const SID = "1732480000";
  const on = (pathname: string, campaign: Campaign = { source: "instagram" }, session = SID) => ({
    campaign,
    session,
    pathname,
  });

  it("puts the visit's campaign, session and the page clicked from on lead links, in either language", () => {
    expect(leadHrefForVisit("/thank-you?cta=email", on("/share"), ORIGIN)).toBe(
      `/thank-you?cta=email&source=instagram&sid=${SID}&returnUrl=%2Fshare`,
    );
    expect(
      leadHrefForVisit(
        "/ar/thank-you?cta=demo&source=direct&returnUrl=%2Far%2Fshare",
        on("/ar", { source: "tiktok" }),
        ORIGIN,
      ),
    ).toBe(`/ar/thank-you?cta=demo&source=tiktok&sid=${SID}&returnUrl=%2Far`);
    // From the English home page there is no way back to name: the thank-you page's default.
    expect(
      leadHrefForVisit(
        "/thank-you?cta=email&source=ig&returnUrl=%2Fshare",
        on("/", { source: "ig" }),
        ORIGIN,
      ),
    ).toBe(`/thank-you?cta=email&source=ig&sid=${SID}`);
  });

  it("replaces the link's campaign with the visit's whole one, as written and in one order", () => {
    const visit = on("/share", {
      utm_source: "Facebook",
      utm_campaign: "Ramadan Promo 2026",
      utm_content: "{{ad.name}}",
      fbclid: "IwAR2",
    });
    const corrected = leadHrefForVisit(
      "/thank-you?cta=whatsapp&gclid=old&source=ig&utm_campaign=old",
      visit,
      ORIGIN,
    );
    expect(corrected).toBe(
      `/thank-you?cta=whatsapp&utm_source=Facebook&utm_campaign=Ramadan+Promo+2026&utm_content=%7B%7Bad.name%7D%7D&fbclid=IwAR2&sid=${SID}&returnUrl=%2Fshare`,
    );
    const url = new URL(corrected, ORIGIN);
    expect(url.searchParams.get("utm_campaign")).toBe("Ramadan Promo 2026");
    expect(url.searchParams.get("utm_content")).toBe("{{ad.name}}");
    // An untagged visit takes the link's campaign away rather than keep another page's.
    expect(leadHrefForVisit("/thank-you?cta=email&source=ig&utm_id=7", on("/", {}), ORIGIN)).toBe(
      `/thank-you?cta=email&sid=${SID}`,
    );
    expect(
      leadHrefForVisit("/thank-you?cta=email&source=ig", on("/", { source: "direct" }), ORIGIN),
    ).toBe(`/thank-you?cta=email&sid=${SID}`);
  });

  it("keeps the link's plan, redirect and hash as they were, after the session", () => {
    const redirect = "https://wa.me/971585550134?text=Hi Darb & co";
    const href = `/thank-you?cta=whatsapp&source=x&plan=pro&redirect=${encodeURIComponent(redirect)}&returnUrl=%2Far#top`;
    const corrected = leadHrefForVisit(href, on("/share", { source: "ig" }), ORIGIN);
    const url = new URL(corrected, ORIGIN);
    expect([...url.searchParams.keys()]).toEqual([
      "cta",
      "source",
      "sid",
      "plan",
      "redirect",
      "returnUrl",
    ]);
    expect(url.searchParams.get("source")).toBe("ig");
    expect(url.searchParams.get("plan")).toBe("pro");
    expect(url.searchParams.get("redirect")).toBe(redirect);
    expect(url.searchParams.get("returnUrl")).toBe("/share");
    expect(url.hash).toBe("#top");
  });

  it("puts the visit's session on in place of the link's, and none when the visit has none", () => {
    expect(
      leadHrefForVisit("/thank-you?cta=email&sid=111&source=ig", on("/", { source: "ig" }), ORIGIN),
    ).toBe(`/thank-you?cta=email&source=ig&sid=${SID}`);
    expect(
      leadHrefForVisit(
        "/thank-you?cta=email&sid=111&source=ig",
        on("/", { source: "ig" }, ""),
        ORIGIN,
      ),
    ).toBe("/thank-you?cta=email&source=ig");
  });

  it("never lets the visit's words add a parameter to the link", () => {
    const corrected = leadHrefForVisit(
      "/thank-you?cta=email",
      on("/", { utm_content: "x&redirect=https://evil.example&cta=link#y" }),
      ORIGIN,
    );
    const url = new URL(corrected, ORIGIN);
    expect([...url.searchParams.keys()]).toEqual(["cta", "utm_content", "sid"]);
    expect(url.searchParams.get("cta")).toBe("email");
    expect(url.searchParams.get("utm_content")).toBe("x&redirect=https://evil.example&cta=link#y");
    expect(url.hash).toBe("");
  });

  it("carries the variant the visit was shown, over the page's, and keeps the placement", () => {
    const seen = { ...on("/share"), variant: "DRB-hero_headline-cashback_first" };
    // A page that shows no variant: the visit's, from the landing page before it.
    expect(leadHrefForVisit("/thank-you?cta=email&pl=footer", seen, ORIGIN)).toBe(
      `/thank-you?cta=email&source=instagram&sid=${SID}&pl=footer&exp=DRB-hero_headline-cashback_first&returnUrl=%2Fshare`,
    );
    // A link a kept part rendered for another variant: the visit's, once.
    const corrected = leadHrefForVisit(
      "/thank-you?cta=email&exp=DRB-hero_headline-control&pl=hero",
      seen,
      ORIGIN,
    );
    expect(new URL(corrected, ORIGIN).searchParams.getAll("exp")).toEqual([
      "DRB-hero_headline-cashback_first",
    ]);
    // A visit that was shown none keeps what the page's link says.
    expect(
      leadHrefForVisit(
        "/thank-you?cta=email&exp=DRB-hero_headline-control&pl=hero",
        on("/"),
        ORIGIN,
      ),
    ).toBe(
      `/thank-you?cta=email&source=instagram&sid=${SID}&exp=DRB-hero_headline-control&pl=hero`,
    );
  });

  it("leaves every other link, and a lead link that is already right, as it is", () => {
    const visit = on("/", { source: "ig" }, "");
    expect(leadHrefForVisit("/share", visit, ORIGIN)).toBe("/share");
    expect(leadHrefForVisit("/share?source=x", on("/share"), ORIGIN)).toBe("/share?source=x");
    expect(leadHrefForVisit("https://evil.example/thank-you?source=x", visit, ORIGIN)).toBe(
      "https://evil.example/thank-you?source=x",
    );
    expect(leadHrefForVisit("/thank-you?source=ig", visit, ORIGIN)).toBe("/thank-you?source=ig");
    const right = `/thank-you?cta=demo&source=instagram&sid=${SID}&returnUrl=%2Fshare`;
    expect(leadHrefForVisit(right, on("/share"), ORIGIN)).toBe(right);
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
