import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { appScreen as en } from "~/content/app-screen";
import { appScreen as ar } from "~/content/ar/app-screen";
import type { Copy } from "~/content/copy.server";
import { LOCALES } from "~/shared/locale";
import { CROP, CROPPED_HEIGHT } from "./layout";
import { PALETTES, SCHEMES } from "./palette";
import {
  DRAWINGS,
  HEIGHT_OF,
  renderScreenSvg,
  SCREEN_OF,
  SCREENS_PATH,
  screenFile,
  screenSrc,
} from "./svg-files.server";

const COPY = { en, ar } as const;
/** The hero's file is on the way to the first screen's largest paint: it stays this small. */
const MAX_GZIP_BYTES = 2_000;
const ARABIC = /[\u0600-\u06FF]/;

/** A text as React writes it into the SVG. */
const escaped = (text: string | number) =>
  String(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#x27;");

/** Every string of a copy object replaced by `text`, numbers kept: words an attacker chose. */
function everyWord<T>(copy: T, text: string): T {
  if (typeof copy === "string") return text as T;
  if (Array.isArray(copy)) return copy.map((item) => everyWord(item, text)) as T;
  if (copy && typeof copy === "object") {
    return Object.fromEntries(
      Object.entries(copy).map(([key, value]) => [key, everyWord(value, text)]),
    ) as T;
  }
  return copy;
}

const VARIANTS = DRAWINGS.flatMap((drawing) =>
  LOCALES.flatMap((locale) => SCHEMES.map((scheme) => [drawing, locale, scheme] as const)),
);

describe.each(VARIANTS)("the %s screen in %s, %s", (drawing, locale, scheme) => {
  const svg = renderScreenSvg(drawing, locale, scheme);
  const screen = SCREEN_OF[drawing];
  const height = HEIGHT_OF[drawing];

  it("is a standalone SVG document in the page's language and direction, named", () => {
    expect(svg).toMatch(
      new RegExp(`^<svg xmlns="http://www\\.w3\\.org/2000/svg" viewBox="0 0 288 ${height}"`),
    );
    expect(svg).toContain(`<title>${escaped(COPY[locale][screen].label)}</title>`);
    expect(svg).toContain(`xml:lang="${locale}"`);
    expect(svg).toContain(`direction="${locale === "ar" ? "rtl" : "ltr"}"`);
    expect(svg.endsWith("</svg>")).toBe(true);
  });

  it("is drawn with presentation attributes only: nothing a CSP or an <img> would refuse", () => {
    // default-src 'none' refuses inline styles; an image loads nothing and runs nothing.
    for (const refused of ["<style", "style=", "class=", "<script", "foreignObject", "href="]) {
      expect(svg).not.toContain(refused);
    }
    expect(svg.match(/url\([^)]*\)/g)).toEqual(["url(#screen)"]);
  });

  it("uses its scheme's colours", () => {
    const screenFill = (colour: string) =>
      `<rect x="6" y="6" width="276" height="${height - 12}" fill="${colour}">`;
    const other = PALETTES[scheme === "light" ? "dark" : "light"];
    expect(svg).toContain(screenFill(PALETTES[scheme].screen));
    expect(svg).not.toContain(screenFill(other.screen));
    // Words drawn without a colour of their own take the scheme's.
    expect(svg).toMatch(new RegExp(`^<svg [^>]* fill="${PALETTES[scheme].text}">`));
  });

  it(`stays under ${MAX_GZIP_BYTES} bytes gzipped`, () => {
    const bytes = gzipSync(svg, { level: 6 }).length;
    console.info(`${drawing}-${locale}-${scheme}.svg: ${svg.length} B, ${bytes} B gzipped`);
    expect(bytes).toBeLessThan(MAX_GZIP_BYTES);
  });
});

describe.each(LOCALES)("the words in %s", (locale) => {
  const copy = COPY[locale];
  const other = COPY[locale === "en" ? "ar" : "en"];

  it("the live drive shows its words and figures, and no other language's", () => {
    const svg = renderScreenSvg("drive", locale, "light");
    const { drive } = copy;
    for (const text of [drive.alert, drive.alertNote, drive.road, drive.eta, drive.destination]) {
      expect(svg).toContain(`>${escaped(text)}</`);
    }
    for (const text of [drive.scoreLabel, drive.cashback]) {
      expect(svg).toContain(`>${escaped(text)}</`);
    }
    expect(svg).toContain(`>${drive.limit}</text>`);
    expect(svg).toContain(`>${drive.speed} <tspan font-size="10">${escaped(drive.unit)}</tspan>`);
    expect(svg).toContain(`>${drive.score}</text>`);
    expect(svg).toContain(`stroke-dasharray="${drive.score} 100"`);
    expect(svg).not.toContain(escaped(other.drive.alert));
    expect(ARABIC.test(svg)).toBe(locale === "ar");
  });

  it("the hero's cropped drive keeps every card's words and figures: only the map gives way", () => {
    const whole = renderScreenSvg("drive", locale, "light");
    const cropped = renderScreenSvg("drive-cropped", locale, "light");
    const words = (svg: string) =>
      [...svg.matchAll(/<text[^>]*>(.*?)<\/text>/g)].map(([, text]) => text);
    const { drive } = copy;
    // The road's name is the map's, which the cards cover there.
    expect(words(cropped)).toEqual(words(whole).filter((text) => text !== escaped(drive.road)));
    for (const text of [drive.alert, drive.scoreLabel, drive.cashback]) {
      expect(cropped).toContain(`>${escaped(text)}</`);
    }
    expect(cropped).toContain(`>${drive.score}</text>`);
    // The sheet keeps its shape, moved up by the crop; the alert stays where it was.
    expect(cropped).toContain(`<g transform="translate(0 -${CROP})"><path d="M6 496`);
    expect(cropped).toContain('<rect x="16" y="50" width="256" height="52"');
    expect(cropped).toMatch(new RegExp(`viewBox="0 0 288 ${CROPPED_HEIGHT}"`));
  });

  it("the weekly report shows its words and figures", () => {
    const svg = renderScreenSvg("report", locale, "dark");
    const { report } = copy;
    for (const text of [report.title, report.week, report.scoreLabel, report.upTo]) {
      expect(svg).toContain(`>${escaped(text)}</`);
    }
    for (const text of [report.cashback, report.cashbackValue, ...report.weeks, ...report.tip]) {
      expect(svg).toContain(`>${escaped(text)}</`);
    }
    const [first, last] = report.scores;
    for (const score of report.scores) expect(svg).toContain(`>${score}</text>`);
    expect(svg).toContain(`>+${last - first}</text>`);
    for (const metric of report.metrics) {
      expect(svg).toContain(`>${escaped(metric.label)}</text>`);
      expect(svg).toContain(`>${escaped(metric.note)}</text>`);
      expect(svg).toContain(`>${metric.before}</text>`);
      expect(svg).toContain(`>${metric.after}</text>`);
    }
    expect(ARABIC.test(svg)).toBe(locale === "ar");
  });
});

it.each(DRAWINGS)("escapes every word of the %s screen, whatever it holds", (drawing) => {
  const hostile = `</text><script>alert(1)</script><a href="x" onload='y'>&amp;`;
  const copy = everyWord(en, hostile) as unknown as Copy["appScreen"];
  const svg = renderScreenSvg(drawing, "en", "light", copy);
  // Every tag is one of the drawing's own; the words are text, escaped.
  const tags = new Set(svg.match(/<\/?[^\s>/]+/g)?.map((tag) => tag.replace("/", "")));
  expect([...tags].sort()).toEqual([
    "<circle",
    "<clipPath",
    "<g",
    "<path",
    "<rect",
    "<svg",
    "<text",
    "<title",
    "<tspan",
  ]);
  expect(svg).toContain(escaped(hostile));
});

describe("the files", () => {
  const names = VARIANTS.map(([drawing, locale, scheme]) => screenSrc(drawing, locale, scheme));

  it("one per drawing, language and scheme, named by a hash of its bytes", () => {
    expect(new Set(names).size).toBe(DRAWINGS.length * 4);
    for (const [drawing, locale, scheme] of VARIANTS) {
      const src = screenSrc(drawing, locale, scheme);
      const body = renderScreenSvg(drawing, locale, scheme);
      const hash = createHash("sha256").update(body).digest("hex").slice(0, 10);
      expect(src).toBe(`${SCREENS_PATH}${drawing}-${locale}-${scheme}.${hash}.svg`);
      expect(screenFile(src.slice(SCREENS_PATH.length))).toBe(body);
    }
  });

  it("answer no other name", () => {
    const name = (names[0] ?? "").slice(SCREENS_PATH.length);
    for (const wrong of [
      "",
      name.toUpperCase(),
      name.replace(/\.[0-9a-f]{10}\./, "."),
      name.replace(/\.([0-9a-f])/, (_, digit) => `.${digit === "0" ? "1" : "0"}`),
      name.replace("-en-", "-fr-"),
      `${name}/`,
      `../${name}`,
      "constructor",
      "__proto__",
    ]) {
      expect(screenFile(wrong), wrong).toBeUndefined();
    }
  });
});
