import { gzipSync } from "node:zlib";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppScreen } from "~/components/AppScreen.server";
import { SCREENS, SCREENS_PATH, screenFile } from "~/components/app-screen/svg-files.server";
import { appScreen as en } from "~/content/app-screen";
import { appScreen as ar } from "~/content/ar/app-screen";
import type { Locale } from "~/shared/locale";

// useCopy() reads the page's language from the root loader's data; here, from this variable.
const page = vi.hoisted(() => ({ locale: "en" as Locale }));
vi.mock("~/hooks/use-site", () => ({ useLocale: () => page.locale }));

afterEach(() => {
  page.locale = "en";
});

const COPY = { en, ar } as const;
/**
 * Drawn inline, a screen cost every "/" document 1.3 kB gzipped; as a <picture> it costs its
 * alternative text (the longest, the Arabic report's, about 300 B) and two URLs.
 */
const MAX_GZIP_BYTES = 600;
const ARABIC = /[\u0600-\u06FF]/;

function render(locale: Locale, screen: (typeof SCREENS)[number], lazy = false) {
  page.locale = locale;
  return renderToStaticMarkup(<AppScreen screen={screen} lazy={lazy} />);
}

const bytes = (html: string) => gzipSync(html).length;

/** A text as it appears in the markup: React escapes the apostrophe. */
const shown = (text: string) => text.replaceAll("'", "&#x27;");

/** The file a URL in the markup names, or undefined if the site would answer 404. */
const served = (url: string | undefined) =>
  url?.startsWith(SCREENS_PATH) ? screenFile(url.slice(SCREENS_PATH.length)) : undefined;

describe.each(["en", "ar"] as const)("AppScreen in %s", (locale) => {
  it.each(SCREENS)("shows the %s screen as one image, named in the page's language", (screen) => {
    const html = render(locale, screen);
    expect(html).toMatch(/^<picture><source [^>]+\/><img [^>]+\/><\/picture>$/);
    const alt = html.match(/ alt="([^"]+)"/)?.[1] ?? "";
    expect(alt).toBe(shown(COPY[locale][screen].label));
    expect(ARABIC.test(alt)).toBe(locale === "ar");
    // Its box before it loads: the phone's 9:19.5, so nothing moves when it arrives.
    expect(html.match(/ width="288" height="624"/g)).toHaveLength(2);
    expect(html).toContain(' decoding="async"');
    expect(html).not.toContain("style=");
  });

  it.each(SCREENS)("picks the %s file of the page's language and scheme", (screen) => {
    const html = render(locale, screen);
    const light = html.match(/<img [^>]*src="([^"]+)"/)?.[1];
    const dark = html.match(/<source media="\(prefers-color-scheme: dark\)" srcSet="([^"]+)"/)?.[1];
    expect(light).toMatch(new RegExp(`^${SCREENS_PATH}${screen}-${locale}-light\\.\\w+\\.svg$`));
    expect(dark).toMatch(new RegExp(`^${SCREENS_PATH}${screen}-${locale}-dark\\.\\w+\\.svg$`));
    expect(served(light)).toContain(`xml:lang="${locale}"`);
    expect(served(dark)).toContain(`xml:lang="${locale}"`);
  });

  it("the hero's is fetched first, a section's only when near", () => {
    const eager = render(locale, "drive");
    expect(eager).toContain(' fetchpriority="high"');
    expect(eager).not.toContain("loading=");
    const lazy = render(locale, "report", true);
    expect(lazy).toContain(' loading="lazy"');
    expect(lazy).not.toContain("fetchpriority");
  });

  it("the hero's, below 1024 px, is the drive cropped to its cards, in the page's scheme", () => {
    page.locale = locale;
    const html = renderToStaticMarkup(<AppScreen screen="drive" narrow="drive-cropped" />);
    const sources = [...html.matchAll(/<source media="([^"]+)" srcSet="([^"]+)" ([^>]+)\/>/g)];
    // The first source that matches wins: narrow and dark, narrow, dark, then the <img>.
    expect(sources.map(([, media]) => media)).toEqual([
      "(max-width:63.99rem) and (prefers-color-scheme: dark)",
      "(max-width:63.99rem)",
      "(prefers-color-scheme: dark)",
    ]);
    const [narrowDark, narrowLight, dark] = sources.map(([, , src, size]) => ({ src, size }));
    expect(narrowDark?.src).toMatch(`${SCREENS_PATH}drive-cropped-${locale}-dark.`);
    expect(narrowLight?.src).toMatch(`${SCREENS_PATH}drive-cropped-${locale}-light.`);
    expect(dark?.src).toMatch(`${SCREENS_PATH}drive-${locale}-dark.`);
    // Each source gives its own box, so the cropped phone holds its shape before it loads.
    expect(narrowDark?.size).toBe('width="288" height="324"');
    expect(narrowLight?.size).toBe('width="288" height="324"');
    expect(dark?.size).toBe('width="288" height="624"');
    for (const source of [narrowDark, narrowLight, dark]) {
      expect(served(source?.src)).toContain(`xml:lang="${locale}"`);
    }
    // One description for both crops: the cropped one still shows all it says but the road.
    expect(html.match(/ alt="([^"]+)"/)?.[1]).toBe(shown(COPY[locale].drive.label));
    expect(bytes(html)).toBeLessThan(MAX_GZIP_BYTES);
  });

  it.each(SCREENS)(`costs the document under ${MAX_GZIP_BYTES} B gzipped (%s)`, (screen) => {
    const size = bytes(render(locale, screen));
    console.info(`AppScreen ${screen} (${locale}): ${size} B gzipped`);
    expect(size).toBeLessThan(MAX_GZIP_BYTES);
  });
});

it("shows the site's own figures", () => {
  expect(en.drive).toMatchObject({ score: 92, limit: 100, speed: 112 });
  expect(en.report.scores).toEqual([71, 88]);
  expect(en.report.metrics.map(({ before, after }) => [before, after])).toEqual([
    [9, 3],
    [4, 0],
  ]);
  for (const copy of [en, ar]) {
    expect(copy.drive.label).toContain("86");
    expect(copy.report.label).toContain("25%");
  }
});
