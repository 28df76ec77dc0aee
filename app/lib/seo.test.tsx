// @vitest-environment happy-dom
import type { MetaDescriptor } from "@remix-run/node";
import { Meta } from "@remix-run/react";
import { createRemixStub } from "@remix-run/testing";
import { cleanup, render, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { heads } from "~/content/heads";
import { absoluteUrl, fullTitle, pageMeta } from "~/lib/seo";

afterEach(cleanup);

const SITE = "https://darb.example";
const tag = (tags: MetaDescriptor[], key: "name" | "property", value: string) =>
  tags.find((t) => (t as Record<string, string>)[key] === value) as { content: string } | undefined;

describe("pageMeta", () => {
  const home = pageMeta({ ...heads.home, path: "/" }, { siteUrl: SITE, platform: "default" });

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
    expect(tag(home, "name", "twitter:image")?.content).toBe(`${SITE}/og-image.png`);
    expect(tag(home, "name", "keywords")?.content).toContain("Dubai");
    expect(tag(home, "property", "article:modified_time")?.content).toBe(heads.home.dateModified);
    expect(tag(home, "name", "robots")?.content).toBe("index, follow");
  });

  it("words the description for the platform that will show it", () => {
    for (const platform of ["default", "facebook", "twitter", "whatsapp"] as const) {
      const tags = pageMeta({ ...heads.home, path: "/" }, { siteUrl: SITE, platform });
      const wording = heads.home.description[platform];
      expect(tag(tags, "name", "description")?.content).toBe(wording);
      expect(tag(tags, "property", "og:description")?.content).toBe(wording);
      expect(tag(tags, "name", "twitter:description")?.content).toBe(wording);
    }
    expect(new Set(Object.values(heads.home.description)).size).toBe(4);
  });

  it("keeps pages out of search results without naming a canonical for them", () => {
    const tags = pageMeta(
      { ...heads.thankYou, path: "/thank-you", noindex: true },
      {
        siteUrl: SITE,
        platform: "default",
      },
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

describe("JSON-LD in the document", () => {
  it("cannot close its script element, whatever a value holds", async () => {
    const hostile = "</script><script>alert(1)</script><!--";
    const Stub = createRemixStub([
      {
        path: "/",
        meta: () =>
          pageMeta(
            {
              ...heads.home,
              path: "/",
              structuredData: {
                "@context": "https://schema.org",
                "@type": "Organization",
                name: hostile,
              },
            },
            { siteUrl: SITE, platform: "default" },
          ),
        Component: () => <Meta />,
      },
    ]);
    const { container } = render(<Stub />);
    await waitFor(() => expect(container.querySelector("script")).not.toBeNull());
    expect(container.querySelectorAll("script")).toHaveLength(1);
    const script = container.querySelector("script");
    expect(script?.innerHTML).not.toMatch(/<\/?script|<!--/i);
    expect(JSON.parse(script?.textContent ?? "").name).toBe(hostile);
  });
});
