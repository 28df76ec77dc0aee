import { describe, expect, it } from "vitest";
import { counted, fill, listOf } from "~/lib/plural";

const en = "en-AE";
const ar = "ar-AE-u-nu-latn";
const days = { one: "{count} day", other: "{count} days" };
const arDays = {
  one: "يوم واحد",
  two: "يومان",
  few: "{count} أيام",
  many: "{count} يومًا",
  other: "{count} يوم",
};

describe("counted", () => {
  it("follows English's one and other", () => {
    expect(counted(en, 1, days)).toBe("1 day");
    expect(counted(en, 0, days)).toBe("0 days");
    expect(counted(en, 2, days)).toBe("2 days");
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
});

describe("fill and listOf", () => {
  it("fills named slots and leaves unknown ones", () => {
    expect(fill("Share on {network}", { network: "WhatsApp" })).toBe("Share on WhatsApp");
    expect(fill("{a} {b}", { a: "x" })).toBe("x {b}");
  });

  it("joins lists in each language's way", () => {
    expect(listOf(en, ["1 hour", "2 minutes"])).toBe("1 hour and 2 minutes");
    expect(listOf(ar, ["يومان", "3 ساعات", "5 دقائق"])).toBe("يومان و3 ساعات و5 دقائق");
  });
});
