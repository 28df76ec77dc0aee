import { afterEach, describe, expect, it, vi } from "vitest";
import { counted, fill, listOf } from "~/shared/plural";
import { countingFor } from "~/shared/plural.server";

const en = countingFor("en-AE");
const ar = countingFor("ar-AE-u-nu-latn");
const days = { one: "{count} day", other: "{count} days" };
const arDays = {
  one: "يوم واحد",
  two: "يومان",
  few: "{count} أيام",
  many: "{count} يومًا",
  other: "{count} يوم",
};
const everyCategory = {
  zero: "zero {count}",
  one: "one {count}",
  two: "two {count}",
  few: "few {count}",
  many: "many {count}",
  other: "other {count}",
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("counted", () => {
  it("follows English's one and other", () => {
    expect(counted(en, 1, days)).toBe("1 day");
    expect(counted(en, 0, days)).toBe("0 days");
    expect(counted(en, 2, days)).toBe("2 days");
    expect(counted(en, 1500, days)).toBe("1,500 days");
  });

  it("follows Arabic's six categories, with Western digits", () => {
    expect(counted(ar, 1, arDays)).toBe("يوم واحد");
    expect(counted(ar, 2, arDays)).toBe("يومان");
    expect(counted(ar, 3, arDays)).toBe("3 أيام");
    expect(counted(ar, 10, arDays)).toBe("10 أيام");
    expect(counted(ar, 11, arDays)).toBe("11 يومًا");
    expect(counted(ar, 100, arDays)).toBe("100 يوم");
    expect(counted(ar, 103, arDays)).toBe("103 أيام");
    // No `zero` phrase given: the `other` one.
    expect(counted(ar, 0, arDays)).toBe("0 يوم");
  });

  it("says every count exactly as the browser's own Intl would, in and past the tables", () => {
    for (const intl of ["en-AE", "ar-AE-u-nu-latn", "ar-AE"]) {
      const counting = countingFor(intl);
      const rules = new Intl.PluralRules(intl);
      const numbers = new Intl.NumberFormat(intl);
      for (const count of [...Array.from({ length: 1200 }, (_, n) => n), 1.5, -1, 100_000]) {
        const expected = everyCategory[rules.select(count)].replace(
          "{count}",
          numbers.format(count),
        );
        expect(counted(counting, count, everyCategory), `${intl} ${count}`).toBe(expected);
      }
    }
  });

  it("refuses a language written in other digits than the site's Western ones", () => {
    expect(() => countingFor("ar-AE-u-nu-arab")).toThrow(/Western digits/);
  });

  it("needs no Intl in the browser for the countdown's and the redirect's counts", () => {
    // The point of the tables: a browser's first Intl.NumberFormat or Arabic PluralRules
    // blocks its main thread while ICU data loads.
    const rules = vi.spyOn(Intl, "PluralRules");
    const numbers = vi.spyOn(Intl, "NumberFormat");
    const lists = vi.spyOn(Intl, "ListFormat");
    for (let count = 0; count < 100; count++) counted(ar, count, arDays);
    listOf(ar, ["a", "b", "c"]);
    expect(rules).not.toHaveBeenCalled();
    expect(numbers).not.toHaveBeenCalled();
    expect(lists).not.toHaveBeenCalled();
  });
});

describe("countingFor", () => {
  it("keeps each count's plural category in one digit", () => {
    expect(en.categories).toBe(`51${"5".repeat(98)}`);
    expect(ar.categories.slice(0, 14)).toBe("01233333333444");
  });
});

describe("fill and listOf", () => {
  it("fills named slots and leaves unknown ones", () => {
    expect(fill("Share on {network}", { network: "WhatsApp" })).toBe("Share on WhatsApp");
    expect(fill("{a} {b}", { a: "x" })).toBe("x {b}");
  });

  it("joins lists in each language's way", () => {
    expect(listOf(en, ["1 hour"])).toBe("1 hour");
    expect(listOf(en, ["1 hour", "2 minutes"])).toBe("1 hour and 2 minutes");
    expect(listOf(en, ["1 day", "1 hour", "2 minutes"])).toBe("1 day, 1 hour, and 2 minutes");
    expect(listOf(ar, ["يومان", "3 ساعات", "5 دقائق"])).toBe("يومان و3 ساعات و5 دقائق");
    // Past the patterns sent along: Intl's own.
    expect(listOf(en, ["a", "b", "c", "d"])).toBe("a, b, c, and d");
  });

  it("leaves a part that looks like a slot as it is", () => {
    expect(listOf(en, ["{1}", "x"])).toBe("{1} and x");
  });
});
