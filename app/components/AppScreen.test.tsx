import { gzipSync } from "node:zlib";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppScreen } from "~/components/AppScreen.server";
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
const SCREENS = ["drive", "report"] as const;
/** Each screen ships in every "/" document: its markup, gzipped as it is sent, stays under this. */
const MAX_GZIP_BYTES = 1700;
const ARABIC = /[\u0600-\u06FF]/;

function render(locale: Locale, screen: (typeof SCREENS)[number]) {
  page.locale = locale;
  return renderToStaticMarkup(<AppScreen screen={screen} />);
}

/** A text as it appears in the markup: React escapes the apostrophe. */
const shown = (text: string | number) => String(text).replaceAll("'", "&#x27;");

describe.each(["en", "ar"] as const)("AppScreen in %s", (locale) => {
  const copy = COPY[locale];

  it.each(SCREENS)("draws the %s screen as one image named in the page's language", (screen) => {
    const html = render(locale, screen);
    expect(html.match(/role="img"/g)).toHaveLength(1);
    // The image and its name come first; everything drawn inside it is hidden.
    expect(html).toMatch(
      /^<div role="img" aria-label="[^"]+" class="[^"]+"><div aria-hidden="true"/,
    );
    const label = html.match(/aria-label="([^"]+)"/)?.[1] ?? "";
    expect(label).toBe(shown(copy[screen].label));
    expect(ARABIC.test(label)).toBe(locale === "ar");
    expect(html).not.toContain("style=");
  });

  it("shows the live drive's words and figures", () => {
    const html = render(locale, "drive");
    const { drive } = copy;
    for (const text of [drive.alert, drive.alertNote, drive.road, drive.unit, drive.eta]) {
      expect(html).toContain(shown(text));
    }
    for (const text of [drive.destination, drive.scoreLabel, drive.cashback]) {
      expect(html).toContain(shown(text));
    }
    expect(html).toContain(`>${drive.limit}</b>`);
    expect(html).toContain(`>${drive.speed} <small`);
    expect(html).toContain(`>${drive.score}</text>`);
    expect(html).toContain(`stroke-dasharray="${drive.score} 100"`);
  });

  it("shows the weekly report's words and figures", () => {
    const html = render(locale, "report");
    const { report } = copy;
    for (const text of [report.title, report.week, report.scoreLabel, report.tip, report.upTo]) {
      expect(html).toContain(shown(text));
    }
    for (const text of [report.cashback, report.cashbackValue, ...report.weeks]) {
      expect(html).toContain(shown(text));
    }
    for (const score of report.scores) expect(html).toContain(`>${score}</b>`);
    for (const metric of report.metrics) {
      expect(html).toContain(shown(metric.label));
      expect(html).toContain(shown(metric.note));
      expect(html).toContain(`>${metric.before}</span>`);
      expect(html).toContain(`>${metric.after}</span>`);
    }
  });

  it.each(SCREENS)("keeps the %s screen under 1,700 B gzipped", (screen) => {
    const bytes = gzipSync(render(locale, screen)).length;
    console.info(`AppScreen ${screen} (${locale}): ${bytes} B gzipped`);
    expect(bytes).toBeLessThan(MAX_GZIP_BYTES);
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
