// The Arabic copy must say what the English says: the same keys, the same list lengths, the
// same prices, ids, links and numbers, and no English left behind. The compiler checks the
// shape through `Localized<T>`; this walks the values themselves at run time.
import { describe, expect, it } from "vitest";
import * as enAppScreen from "~/content/app-screen";
import * as arAppScreen from "~/content/ar/app-screen";
import * as arBrand from "~/content/ar/brand";
import * as arChrome from "~/content/ar/chrome";
import * as arConversion from "~/content/ar/conversion";
import * as arDownload from "~/content/ar/download";
import * as arFaq from "~/content/ar/faq";
import * as arFooter from "~/content/ar/footer";
import * as arHeads from "~/content/ar/heads";
import * as arLanding from "~/content/ar/landing";
import * as arLegal from "~/content/ar/legal";
import * as arPages from "~/content/ar/pages";
import * as arPlans from "~/content/ar/plans";
import * as arProof from "~/content/ar/proof";
import * as arSections from "~/content/ar/sections";
import * as arShare from "~/content/ar/share";
import * as arUi from "~/content/ar/ui";
import * as enBrand from "~/content/brand";
import * as enChrome from "~/content/chrome";
import * as enConversion from "~/content/conversion";
import * as enDownload from "~/content/download";
import * as enFaq from "~/content/faq";
import * as enFooter from "~/content/footer";
import * as enHeads from "~/content/heads";
import * as enLanding from "~/content/landing";
import * as enLegal from "~/content/legal";
import * as enPages from "~/content/pages";
import * as enPlans from "~/content/plans";
import * as enProof from "~/content/proof";
import * as enSections from "~/content/sections";
import * as enShare from "~/content/share";
import * as enUi from "~/content/ui";
import { spokenRemaining } from "~/shared/countdown";
import { type CountedForms, counted, fill } from "~/shared/plural";
import { countingFor } from "~/shared/plural.server";

const modules: readonly [name: string, en: object, ar: object][] = [
  ["app-screen", enAppScreen, arAppScreen],
  ["brand", enBrand, arBrand],
  ["chrome", enChrome, arChrome],
  ["conversion", enConversion, arConversion],
  ["download", enDownload, arDownload],
  ["faq", enFaq, arFaq],
  ["footer", enFooter, arFooter],
  ["heads", enHeads, arHeads],
  ["landing", enLanding, arLanding],
  ["legal", enLegal, arLegal],
  ["pages", enPages, arPages],
  ["plans", enPlans, arPlans],
  ["proof", enProof, arProof],
  ["sections", enSections, arSections],
  ["share", enShare, arShare],
  ["ui", enUi, arUi],
];

/** Exports that are settings, not copy: they stay in the English module only. */
const NOT_COPY = new Set(["REDIRECT_DELAY_SECONDS"]);

/** Values that are not words, decided by their key: they must be identical in both languages. */
const SAME_IN_BOTH = new Set([
  "id",
  "href",
  "ctaType",
  "price",
  "value",
  "count",
  "currency",
  "period",
  "ogType",
  "twitterCard",
  "path",
  "width",
  "height",
  "type",
  "timeZone",
  "themeColor",
  "datePublished",
  "dateModified",
  "icon",
]);

/** Values that differ by language but are not prose: checked on their own below. */
const SETTINGS = new Set(["locale", "ogLocale"]);

/** Latin-script words allowed in Arabic copy: a road's own name and an OS's own name. */
const LATIN_ALLOWED = new Set(["E11", "iOS"]);

/** A figure that reads the same in both languages: "92", "6%", "404". */
const FIGURE = /^[\d.,%\s-]+$/;

const ARABIC = /[\u0600-\u06FF]/;

// "{count}", "{network}": slots that shared/plural.ts fills, not words.
const latinWords = (text: string) =>
  (text.replace(/\{\w+\}/g, "").match(/[A-Za-z][A-Za-z0-9]*/g) ?? []).filter(
    (word) => !LATIN_ALLOWED.has(word),
  );

type Leaf = { path: string; key: string; en: unknown; ar: unknown };

const PLURAL_CATEGORIES = new Set(["zero", "one", "two", "few", "many", "other"]);
const isCountedForms = (value: object) =>
  "other" in value && Object.keys(value).every((key) => PLURAL_CATEGORIES.has(key));

/** Walks two values side by side, failing on any difference of shape; returns the leaves. */
function walk(en: unknown, ar: unknown, path: string, key: string, leaves: Leaf[]): Leaf[] {
  if (Array.isArray(en)) {
    expect(Array.isArray(ar), `${path} is a list`).toBe(true);
    const list = ar as unknown[];
    expect(list.length, `${path} has as many items as in English`).toBe(en.length);
    en.forEach((item, index) => {
      walk(item, list[index], `${path}[${index}]`, key, leaves);
    });
    return leaves;
  }
  if (en !== null && typeof en === "object" && typeof en !== "function") {
    expect(ar !== null && typeof ar === "object", `${path} is an object`).toBe(true);
    const record = ar as Record<string, unknown>;
    if (isCountedForms(en)) {
      // Counted copy (shared/plural.ts): Arabic adds its own plural categories to English's.
      expect(
        Object.keys(record).every((category) => PLURAL_CATEGORIES.has(category)),
        path,
      ).toBe(true);
      expect(typeof record.other, `${path}.other`).toBe("string");
      leaves.push({ path, key, en: (en as { other: string }).other, ar: record.other });
      return leaves;
    }
    expect(Object.keys(record).sort(), `${path} has the English keys`).toEqual(
      Object.keys(en).sort(),
    );
    for (const [child, value] of Object.entries(en)) {
      walk(value, record[child], `${path}.${child}`, child, leaves);
    }
    return leaves;
  }
  leaves.push({ path, key, en, ar });
  return leaves;
}

describe.each(modules)("the Arabic %s module", (name, en, ar) => {
  const exported = Object.keys(en).filter((key) => !NOT_COPY.has(key));
  const leaves = exported.flatMap((key) =>
    walk(
      (en as Record<string, unknown>)[key],
      (ar as Record<string, unknown>)[key],
      `${name}.${key}`,
      key,
      [],
    ),
  );

  it("exports every English copy object under the same name, and nothing else", () => {
    expect(Object.keys(ar).sort()).toEqual(exported.sort());
  });

  it("keeps numbers, booleans, ids, links, prices and icons as in English", () => {
    for (const leaf of leaves) {
      if (
        SAME_IN_BOTH.has(leaf.key) ||
        typeof leaf.en !== "string" ||
        (typeof leaf.en === "string" && FIGURE.test(leaf.en))
      ) {
        if (typeof leaf.en === "function" && !SAME_IN_BOTH.has(leaf.key)) {
          expect(typeof leaf.ar, `${leaf.path} is a function`).toBe("function");
          expect((leaf.ar as () => unknown).length, `${leaf.path} takes the same arguments`).toBe(
            (leaf.en as () => unknown).length,
          );
        } else {
          expect(leaf.ar, leaf.path).toBe(leaf.en);
        }
      }
    }
  });

  it("has a non-empty Arabic string wherever English has words", () => {
    for (const leaf of leaves) {
      if (typeof leaf.en !== "string" || SAME_IN_BOTH.has(leaf.key) || SETTINGS.has(leaf.key)) {
        continue;
      }
      expect(typeof leaf.ar, leaf.path).toBe("string");
      const text = leaf.ar as string;
      expect(text.trim(), `${leaf.path} is not empty`).not.toBe("");
      if (/[A-Za-z]/.test(leaf.en)) expect(text, `${leaf.path} is Arabic`).toMatch(ARABIC);
      expect(latinWords(text), `${leaf.path} has no English words`).toEqual([]);
      // A slot the translation dropped would print nothing where the number or name goes.
      const slots = (value: string) => [...value.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(slots(text), `${leaf.path} keeps the English slots`).toEqual(slots(leaf.en));
    }
  });
});

describe("the Arabic settings", () => {
  it("names the brand درب and speaks ar-AE, with the English colour and time zone", () => {
    expect(arBrand.brand).toMatchObject({
      name: "درب",
      locale: "ar-AE",
      themeColor: enBrand.brand.themeColor,
      timeZone: enBrand.brand.timeZone,
    });
    expect(arHeads.headDefaults.ogLocale).toBe("ar_AE");
    expect(arHeads.headDefaults.siteName).toBe("درب");
    expect(arHeads.heads.home.title.startsWith("درب")).toBe(true);
  });

  it("shares the Arabic share text as the default message", () => {
    expect(arShare.shareMessages.default).toBe(arShare.share.text);
  });

  it("writes Salik, Dubai's roads and the deadline in Arabic", () => {
    // The words only: "Asia/Dubai" is a setting, not copy.
    const all = JSON.stringify(
      modules.map(([, , ar]) => ar),
      (key, value) => (SAME_IN_BOTH.has(key) || SETTINGS.has(key) ? undefined : value),
    );
    for (const words of ["سالك", "شارع الشيخ زايد", "شارع الخيل", "دبي", "15 يونيو", "25%"]) {
      expect(all).toContain(words);
    }
    expect(all).not.toMatch(/Salik|Dubai|WhatsApp|km\/h/);
  });
});

describe("Arabic counted copy", () => {
  const AR = countingFor("ar-AE-u-nu-latn");
  const { spoken } = arUi.ui.countdown;

  it("counts the countdown's days, hours and minutes", () => {
    const say = (forms: CountedForms) => [1, 2, 3, 11, 100].map((n) => counted(AR, n, forms));
    expect(say(spoken.days)).toEqual(["يوم واحد", "يومان", "3 أيام", "11 يومًا", "100 يوم"]);
    expect(say(spoken.hours)).toEqual(["ساعة واحدة", "ساعتان", "3 ساعات", "11 ساعة", "100 ساعة"]);
    expect(say(spoken.minutes)).toEqual([
      "دقيقة واحدة",
      "دقيقتان",
      "3 دقائق",
      "11 دقيقة",
      "100 دقيقة",
    ]);
  });

  it("labels each countdown cell in the form its number takes", () => {
    const { units } = arUi.ui.countdown;
    const label = (forms: CountedForms) =>
      [0, 1, 2, 3, 10, 11, 99].map((n) => counted(AR, n, forms));
    expect(label(units.days)).toEqual(["يوم", "يوم", "يومان", "أيام", "أيام", "يومًا", "يومًا"]);
    expect(label(units.hours)).toEqual([
      "ساعة",
      "ساعة",
      "ساعتان",
      "ساعات",
      "ساعات",
      "ساعة",
      "ساعة",
    ]);
    expect(label(units.mins)).toEqual([
      "دقيقة",
      "دقيقة",
      "دقيقتان",
      "دقائق",
      "دقائق",
      "دقيقة",
      "دقيقة",
    ]);
    expect(label(units.secs)).toEqual([
      "ثانية",
      "ثانية",
      "ثانيتان",
      "ثوانٍ",
      "ثوانٍ",
      "ثانية",
      "ثانية",
    ]);
  });

  it("reads the whole countdown as one Arabic sentence", () => {
    expect(spokenRemaining({ days: 2, hours: 3, mins: 5, secs: 9, done: false }, spoken, AR)).toBe(
      "يتبقّى على إغلاق النسخة التجريبية يومان و3 ساعات و5 دقائق",
    );
    expect(spokenRemaining({ days: 0, hours: 1, mins: 0, secs: 9, done: false }, spoken, AR)).toBe(
      "يتبقّى على إغلاق النسخة التجريبية ساعة واحدة",
    );
    expect(spokenRemaining({ days: 0, hours: 0, mins: 0, secs: 9, done: false }, spoken, AR)).toBe(
      spoken.underAMinute,
    );
    expect(spokenRemaining({ days: 0, hours: 0, mins: 0, secs: 0, done: true }, spoken, AR)).toBe(
      spoken.closed,
    );
  });

  it("counts the redirect's seconds after خلال, and the hero's ratings after بناءً على", () => {
    const { countdown } = arConversion.thankYou;
    expect([1, 2, 3, 11, 100].map((n) => counted(AR, n, countdown))).toEqual([
      "سننقلك خلال ثانية واحدة.",
      "سننقلك خلال ثانيتين.",
      "سننقلك خلال 3 ثوانٍ.",
      "سننقلك خلال 11 ثانية.",
      "سننقلك خلال 100 ثانية.",
    ]);
    const { after, count } = arLanding.landing.hero.rating;
    expect(after(count)).toBe("بناءً على 47 تقييمًا");
    expect([1, 2, 3, 100].map(after)).toEqual([
      "بناءً على تقييم واحد",
      "بناءً على تقييمين",
      "بناءً على 3 تقييمات",
      "بناءً على 100 تقييم",
    ]);
  });

  it("fills the share page's network names in Arabic", () => {
    const { sharePage, share } = arShare;
    expect(fill(sharePage.shareOn, { network: share.platforms.whatsapp })).toBe("شارك على واتساب");
    expect(fill(sharePage.previewFor, { network: share.platforms.twitter })).toBe(
      "كما يظهر على إكس (تويتر)",
    );
  });
});
