import { describe, expect, it } from "vitest";
import { campaignFrom } from "~/shared/campaign";
import {
  contactHref,
  linkKind,
  PLACEMENT_PARAM,
  resolveCta,
  SESSION_PARAM,
  thankYouHref,
  VARIANT_PARAM,
} from "~/shared/cta";

const context = { campaign: { source: "instagram" }, returnUrl: "/", placement: "hero" };

describe("linkKind", () => {
  it.each([
    ["mailto:hello@darb.ae", false, "email"],
    ["MAILTO:hello@darb.ae", false, "email"],
    ["https://wa.me/971585550134", false, "external"],
    ["http://example.ae", false, "external"],
    ["//cdn.example", false, "external"],
    ["/share", true, "external"],
    ["#features", false, "anchor"],
    ["/sitemap", false, "internal"],
    ["/#faq", false, "internal"],
  ] as const)("%s (external=%s) is %s", (href, external, kind) => {
    expect(linkKind(href, external)).toBe(kind);
  });
});

describe("resolveCta", () => {
  const whatsapp = "https://wa.me/971585550134?text=Hi%20Darb";

  it("sends e-mail links through /thank-you with cta=email and reports email_click", () => {
    const resolved = resolveCta(
      { text: "E-mail us", href: "mailto:hello@darb.ae", ctaType: "email" },
      context,
    );
    expect(resolved.href).toBe("/thank-you?cta=email&source=instagram&pl=hero");
    expect(resolved.viaThankYou).toBe(true);
    expect(resolved.event).toEqual({
      name: "email_click",
      params: { cta_type: "email", cta_text: "E-mail us", placement: "hero" },
    });
    expect(resolved.newTab).toBe(false);
  });

  it("puts the visit's whole campaign, as written, on the lead link in the page's language", () => {
    const resolved = resolveCta(
      { text: "E-mail us", href: "mailto:hello@darb.ae", ctaType: "email" },
      {
        ...context,
        campaign: { source: "Instagram", utm_campaign: "Eid Al Fitr", gclid: "Cj0" },
        returnUrl: "/ar/share",
        locale: "ar",
      },
    );
    expect(resolved.href).toBe(
      "/ar/thank-you?cta=email&source=Instagram&utm_campaign=Eid+Al+Fitr&gclid=Cj0&returnUrl=%2Far%2Fshare&pl=hero",
    );
    const untagged = resolveCta(
      { text: "E-mail us", href: "mailto:hello@darb.ae", ctaType: "email" },
      { ...context, campaign: {} },
    );
    expect(untagged.href).toBe("/thank-you?cta=email&pl=hero");
  });

  it("keeps a plain mailto: when the thank-you page is off", () => {
    const resolved = resolveCta(
      { text: "Mail", href: "mailto:hello@darb.ae", ctaType: "email", useThankYouPage: false },
      context,
    );
    expect(resolved.href).toBe("mailto:hello@darb.ae");
    // Its placement is not on its address: the link's attribute says it (CtaLink).
    expect(resolved.viaThankYou).toBe(false);
  });

  it("sends external links through /thank-you with the encoded redirect", () => {
    const resolved = resolveCta(
      { text: "Download", href: whatsapp, ctaType: "whatsapp", external: true },
      { ...context, returnUrl: "/share" },
    );
    const url = new URL(resolved.href, "https://darb.ae");
    expect(url.pathname).toBe("/thank-you");
    expect(url.searchParams.get("cta")).toBe("whatsapp");
    expect(url.searchParams.get("source")).toBe("instagram");
    expect(url.searchParams.get("redirect")).toBe(whatsapp);
    expect(url.searchParams.get("returnUrl")).toBe("/share");
    expect(resolved.href).toContain("redirect=https%3A%2F%2Fwa.me%2F");
    expect(resolved.event?.name).toBe("external_link_click");
    expect(resolved.event?.params.link_url).toBe(whatsapp);
  });

  it("opens external links in a new tab when the thank-you page is off", () => {
    const resolved = resolveCta(
      { text: "Demo", href: "https://demo.darb.ae/", ctaType: "demo", useThankYouPage: false },
      context,
    );
    expect(resolved).toMatchObject({
      href: "https://demo.darb.ae/",
      newTab: true,
      kind: "external",
    });
  });

  it("treats in-page anchors as plain links that report navigation_click", () => {
    const resolved = resolveCta({ text: "FAQ", href: "#faq", ctaType: "link" }, context);
    expect(resolved).toMatchObject({ kind: "anchor", href: "#faq", newTab: false });
    expect(resolved.event?.name).toBe("navigation_click");
  });

  it("leaves site paths alone", () => {
    const resolved = resolveCta({ text: "Sitemap", href: "/sitemap", ctaType: "link" }, context);
    expect(resolved).toEqual({
      kind: "internal",
      href: "/sitemap",
      newTab: false,
      viaThankYou: false,
      event: null,
    });
  });

  it("clips the link text to GA4's 100 characters", () => {
    const resolved = resolveCta({ text: "x".repeat(150), href: "#a", ctaType: "link" }, context);
    expect(resolved.event?.params.cta_text).toHaveLength(100);
  });
});

describe("the variant and the placement on a lead link", () => {
  it("names the variant the page shows and where the button sits, last and short", () => {
    const resolved = resolveCta(
      {
        text: "Get the app",
        href: "https://wa.me/971585550134?text=Hi",
        ctaType: "whatsapp",
        external: true,
      },
      { ...context, placement: "sticky", variant: "DRB-hero_headline-cashback_first" },
    );
    expect(resolved.href).toMatch(/&exp=DRB-hero_headline-cashback_first&pl=sticky$/);
    const url = new URL(resolved.href, "https://darb.example");
    expect(url.searchParams.get(VARIANT_PARAM)).toBe("DRB-hero_headline-cashback_first");
    expect(url.searchParams.get(PLACEMENT_PARAM)).toBe("sticky");
  });

  it("carries no variant on a page that shows none", () => {
    const href = thankYouHref({ cta: "email", campaign: {}, placement: "header" });
    expect(href).toBe("/thank-you?cta=email&pl=header");
    expect(new URL(href, "https://darb.example").searchParams.has(VARIANT_PARAM)).toBe(false);
  });
});

describe("a plan's button", () => {
  it("names its plan on the lead link, after the campaign", () => {
    const resolved = resolveCta(
      {
        text: "Choose Pro",
        href: "https://wa.me/971585550134?text=Hi%20Darb!%20I'd%20like%20the%20Pro%20plan.",
        ctaType: "whatsapp",
        external: true,
        plan: "pro",
      },
      context,
    );
    const url = new URL(resolved.href, "https://darb.example");
    expect(resolved.href).toMatch(/^\/thank-you\?cta=whatsapp&source=instagram&plan=pro&redirect=/);
    expect(url.searchParams.get("redirect")).toContain("Pro%20plan");
  });

  it("names its plan on the Arabic page's lead link too", () => {
    expect(thankYouHref({ cta: "whatsapp", campaign: {}, plan: "plus", locale: "ar" })).toBe(
      "/ar/thank-you?cta=whatsapp&plan=plus",
    );
  });
});

describe("thankYouHref", () => {
  it("leaves returnUrl out when it is the home page", () => {
    expect(thankYouHref({ cta: "demo", campaign: {}, returnUrl: "/" })).toBe("/thank-you?cta=demo");
    expect(thankYouHref({ cta: "demo", campaign: {}, returnUrl: "/share" })).toBe(
      "/thank-you?cta=demo&returnUrl=%2Fshare",
    );
  });

  it("carries no campaign for an untagged visit, not even source=direct", () => {
    expect(thankYouHref({ cta: "email", campaign: {} })).toBe("/thank-you?cta=email");
    expect(thankYouHref({ cta: "email", campaign: { source: "direct" } })).toBe(
      "/thank-you?cta=email",
    );
  });

  it("carries the visit's whole campaign, as written, between the CTA and the rest", () => {
    const campaign = campaignFrom(
      new URLSearchParams(
        "fbclid=IwAR2&utm_content=%7B%7Bad.name%7D%7D&utm_campaign=Ramadan%20Promo%202026&utm_source=Instagram&ref=x",
      ),
    );
    const href = thankYouHref({
      cta: "whatsapp",
      campaign,
      plan: "pro",
      redirect: "https://wa.me/971585550134",
      returnUrl: "/share",
    });
    expect(href).toBe(
      "/thank-you?cta=whatsapp&utm_source=Instagram&utm_campaign=Ramadan+Promo+2026&utm_content=%7B%7Bad.name%7D%7D&fbclid=IwAR2&plan=pro&redirect=https%3A%2F%2Fwa.me%2F971585550134&returnUrl=%2Fshare",
    );
    const url = new URL(href, "https://darb.example");
    expect(url.searchParams.get("utm_campaign")).toBe("Ramadan Promo 2026");
    expect(url.searchParams.get("utm_content")).toBe("{{ad.name}}");
    // No session on a rendered link: the click listener adds the browser's.
    expect(url.searchParams.has(SESSION_PARAM)).toBe(false);
  });

  it("never lets a campaign's words add or replace a parameter of the link", () => {
    const href = thankYouHref({
      cta: "email",
      campaign: { utm_campaign: "x&redirect=https://evil.example&cta=link&returnUrl=//evil" },
    });
    const url = new URL(href, "https://darb.example");
    expect([...url.searchParams.keys()]).toEqual(["cta", "utm_campaign"]);
    expect(url.searchParams.get("cta")).toBe("email");
    expect(url.searchParams.get("utm_campaign")).toBe(
      "x&redirect=https://evil.example&cta=link&returnUrl=//evil",
    );
  });
});

describe("SESSION_PARAM", () => {
  it("is the lead link's sid", () => {
    expect(SESSION_PARAM).toBe("sid");
  });
});

describe("contactHref", () => {
  const site = {
    whatsappNumber: "971585550134",
    email: "hello@darb.ae",
    demoUrl: "https://demo.darb.ae/",
  };
  const copy = { whatsappMessage: "Hi Darb! I'd like it", emailSubject: "Darb & me" };
  it("builds each contact route from the settings", () => {
    expect(contactHref("whatsapp", site, copy)).toBe(
      "https://wa.me/971585550134?text=Hi%20Darb!%20I'd%20like%20it",
    );
    expect(contactHref("email", site, copy)).toBe("mailto:hello@darb.ae?subject=Darb%20%26%20me");
    expect(contactHref("demo", site, copy)).toBe("https://demo.darb.ae/");
  });
});
