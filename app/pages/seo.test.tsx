// @vitest-environment happy-dom
import type { MetaDescriptor } from "@remix-run/node";
import { Meta } from "@remix-run/react";
import { createRemixStub } from "@remix-run/testing";
import { cleanup, render, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { heads as arHeads } from "~/content/ar/heads";
import { heads } from "~/content/heads";
import {
  absoluteUrl,
  alternates,
  fullTitle,
  ogLocales,
  PAGES,
  type PageKey,
  pageHead,
  pageMeta,
} from "~/pages/seo";
import { jsonLdText } from "~/pages/structured-data";
import type { Platform } from "~/shared/platform";

afterEach(cleanup);

const SITE = "https://darb.example";
const links = (tags: MetaDescriptor[], rel: string) =>
  tags.filter((t) => "tagName" in t && t.tagName === "link" && t.rel === rel) as {
    hrefLang?: string;
    href: string;
  }[];
const tag = (tags: MetaDescriptor[], key: "name" | "property", value: string) =>
  tags.find((t) => (t as Record<string, string>)[key] === value) as { content: string } | undefined;

describe("pageMeta", () => {
  const home = pageMeta(
    { ...heads.home, path: "/" },
    { siteUrl: SITE, platform: "default", locale: "en" },
  );

  it("gives every shared tag, with absolute addresses from SITE_URL", () => {
    expect(home).toContainEqual({ title: fullTitle(heads.home.title) });
    expect(home).toContainEqual({ tagName: "link", rel: "canonical", href: `${SITE}/` });
    expect(tag(home, "property", "og:url")?.content).toBe(`${SITE}/`);
    expect(tag(home, "property", "og:image")?.content).toBe(`${SITE}/og-image.png`);
    expect(tag(home, "property", "og:image:width")?.content).toBe("1200");
    expect(tag(home, "property", "og:image:height")?.content).toBe("630");
    expect(tag(home, "property", "og:image:alt")?.content).toMatch(/Darb.*Dubai/);
    expect(tag(home, "property", "og:locale")?.content).toBe("en_AE");
    expect(tag(home, "property", "og:site_name")?.content).toBe("Darb");
    expect(tag(home, "name", "twitter:card")?.content).toBe("summary_large_image");
    expect(tag(home, "name", "twitter:image:alt")?.content).toMatch(/Darb.*Dubai/);
    expect(tag(home, "name", "keywords")?.content).toContain("Dubai");
    expect(tag(home, "property", "article:modified_time")?.content).toBe(heads.home.dateModified);
    expect(tag(home, "name", "robots")?.content).toBe("index, follow");
  });

  it("words the description for the platform that will show it", () => {
    for (const platform of ["default", "facebook", "twitter", "whatsapp"] as const) {
      const tags = pageMeta(
        { ...heads.home, path: "/" },
        { siteUrl: SITE, platform, locale: "en" },
      );
      const wording = heads.home.description[platform];
      expect(tag(tags, "name", "description")?.content).toBe(wording);
      expect(tag(tags, "property", "og:description")?.content).toBe(wording);
    }
    expect(new Set(Object.values(heads.home.description)).size).toBe(4);
  });

  it("keeps pages out of search results without naming a canonical for them", () => {
    const tags = pageMeta(
      { ...heads.thankYou, path: "/thank-you", noindex: true },
      { siteUrl: SITE, platform: "default", locale: "en" },
    );
    expect(tag(tags, "name", "robots")?.content).toBe("noindex, follow");
    expect(tags.some((t) => "rel" in t && t.rel === "canonical")).toBe(false);
    expect(tags).toContainEqual({ title: "Thank you · Darb" });
  });

  it("builds canonicals under a base path", () => {
    expect(absoluteUrl("https://example.com/darb", "/")).toBe("https://example.com/darb/");
    expect(absoluteUrl("https://example.com/darb", "/share")).toBe(
      "https://example.com/darb/share",
    );
  });
});

describe("the page's language", () => {
  it("comes from the requested path: English copy at /…, Arabic copy at /ar…", () => {
    for (const page of Object.keys(PAGES) as PageKey[]) {
      const en = pageHead(page, PAGES[page].path ?? "/missing");
      expect(en.locale).toBe("en");
      expect(en.head.title).toBe(heads[page].title);
      const ar = pageHead(page, `/ar${PAGES[page].path ?? "/missing"}`.replace(/\/$/, ""));
      expect(ar.locale).toBe("ar");
      expect(ar.head.title).toBe(arHeads[page].title);
      expect(ar.head.description).toEqual(arHeads[page].description);
      // The path stays the English one; the head puts it into the language.
      expect(ar.head.path).toBe(en.head.path);
      expect(ar.head.noindex).toBe(PAGES[page].noindex);
    }
    expect(pageHead("home", "/arabic").locale).toBe("en");
  });

  it("gives the not-found page the path that was asked for", () => {
    expect(pageHead("notFound", "/no/such").head.path).toBe("/no/such");
    expect(pageHead("notFound", "/ar/no/such").head).toMatchObject({
      path: "/no/such",
      title: arHeads.notFound.title,
    });
  });

  it("names the brand in the title in the page's language", () => {
    expect(fullTitle("Sitemap")).toBe("Sitemap · Darb");
    expect(fullTitle("خريطة الموقع", "ar")).toBe("خريطة الموقع · درب");
    expect(fullTitle(arHeads.share.title, "ar")).toBe(arHeads.share.title);
  });
});

describe("alternates", () => {
  it("names every language's address and x-default, the English one, absolute", () => {
    expect(alternates(SITE, "/")).toEqual([
      { hreflang: "en", href: `${SITE}/` },
      { hreflang: "ar", href: `${SITE}/ar` },
      { hreflang: "x-default", href: `${SITE}/` },
    ]);
    expect(alternates("https://example.com/darb", "/share")).toEqual([
      { hreflang: "en", href: "https://example.com/darb/share" },
      { hreflang: "ar", href: "https://example.com/darb/ar/share" },
      { hreflang: "x-default", href: "https://example.com/darb/share" },
    ]);
  });
});

describe("ogLocales", () => {
  it("gives the page's locale and the other as an alternate", () => {
    expect(ogLocales("en")).toEqual([
      { property: "og:locale", content: "en_AE" },
      { property: "og:locale:alternate", content: "ar_AE" },
    ]);
    expect(ogLocales("ar")).toEqual([
      { property: "og:locale", content: "ar_AE" },
      { property: "og:locale:alternate", content: "en_AE" },
    ]);
  });
});

describe("pageMeta in Arabic", () => {
  const meta = (page: PageKey, pathname: string, platform: Platform = "default") => {
    const { locale, head } = pageHead(page, pathname);
    return pageMeta(head, { siteUrl: SITE, platform, locale });
  };

  it("speaks Arabic and points at the Arabic address", () => {
    const share = meta("share", "/ar/share");
    expect(share).toContainEqual({ title: arHeads.share.title });
    expect(tag(share, "name", "description")?.content).toBe(arHeads.share.description.default);
    expect(tag(share, "property", "og:title")?.content).toBe(arHeads.share.title);
    expect(tag(share, "property", "og:site_name")?.content).toBe("درب");
    expect(tag(share, "property", "og:locale")?.content).toBe("ar_AE");
    expect(tag(share, "property", "og:locale:alternate")?.content).toBe("en_AE");
    expect(tag(share, "property", "og:url")?.content).toBe(`${SITE}/ar/share`);
    expect(tag(share, "property", "og:image")?.content).toBe(`${SITE}/og-image.png`);
    expect(tag(share, "property", "og:image:alt")?.content).toMatch(/درب/);
    expect(tag(share, "name", "author")?.content).toBe("فريق درب");
    expect(tag(share, "name", "keywords")?.content).toContain("دبي");
    expect(links(share, "canonical")).toEqual([
      { tagName: "link", rel: "canonical", href: `${SITE}/ar/share` },
    ]);
    const sitemap = meta("sitemap", "/ar/sitemap");
    expect(sitemap).toContainEqual({ title: "خريطة الموقع · درب" });
    expect(links(meta("home", "/ar"), "canonical")[0]?.href).toBe(`${SITE}/ar`);
  });

  it("keeps the platform's wording", () => {
    const tags = meta("home", "/ar", "whatsapp");
    expect(tag(tags, "property", "og:description")?.content).toBe(
      arHeads.home.description.whatsapp,
    );
  });

  it("links both languages and x-default from both, the same three links", () => {
    for (const [en, ar, path] of [
      ["home", "/ar", "/"],
      ["share", "/ar/share", "/share"],
      ["sitemap", "/ar/sitemap", "/sitemap"],
    ] as const) {
      const fromEn = links(meta(en, path), "alternate");
      const fromAr = links(meta(en, ar), "alternate");
      const expected = [
        { hrefLang: "en", href: absoluteUrl(SITE, path) },
        { hrefLang: "ar", href: `${SITE}${ar}` },
        { hrefLang: "x-default", href: absoluteUrl(SITE, path) },
      ];
      expect(fromEn.map(({ hrefLang, href }) => ({ hrefLang, href }))).toEqual(expected);
      expect(fromAr).toEqual(fromEn);
    }
  });

  it("gives noindex pages no canonical and no alternates, in either language", () => {
    for (const [page, pathname] of [
      ["thankYou", "/thank-you"],
      ["thankYou", "/ar/thank-you"],
      ["notFound", "/nope"],
      ["notFound", "/ar/nope"],
    ] as const) {
      const tags = meta(page, pathname);
      expect(tag(tags, "name", "robots")?.content, pathname).toBe("noindex, follow");
      expect(links(tags, "canonical"), pathname).toEqual([]);
      expect(links(tags, "alternate"), pathname).toEqual([]);
    }
    expect(meta("thankYou", "/ar/thank-you")).toContainEqual({ title: "شكرًا لك · درب" });
  });
});

describe("the head in the document", () => {
  it("renders the hreflang links as HTML spells them", async () => {
    const { locale, head } = pageHead("share", "/ar/share");
    const Stub = createRemixStub([
      {
        path: "/",
        meta: () => pageMeta(head, { siteUrl: SITE, platform: "default", locale }),
        Component: () => <Meta />,
      },
    ]);
    const { container } = render(<Stub />);
    await waitFor(() => expect(container.querySelector('link[rel="alternate"]')).not.toBeNull());
    const rendered = [...container.querySelectorAll('link[rel="alternate"]')].map((link) => [
      link.getAttribute("hreflang"),
      link.getAttribute("href"),
    ]);
    expect(rendered).toEqual([
      ["en", `${SITE}/share`],
      ["ar", `${SITE}/ar/share`],
      ["x-default", `${SITE}/share`],
    ]);
    expect(
      container.querySelector('meta[property="og:locale:alternate"]')?.getAttribute("content"),
    ).toBe("en_AE");
  });
});

describe("JSON-LD text", () => {
  it("cannot close its script element or open a comment, whatever a value holds", () => {
    const hostile = "</script><script>alert(1)</script><!--";
    const text = jsonLdText({
      "@context": "https://schema.org",
      "@graph": [{ "@type": "Organization", name: hostile }],
    });
    expect(text).not.toMatch(/<\/?script|<!--/i);
    expect(JSON.parse(text)["@graph"][0].name).toBe(hostile);
  });
});
