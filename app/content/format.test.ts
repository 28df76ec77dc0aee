import { describe, expect, it } from "vitest";
import { formatClosing, formatDate, formatDay, formatDecimal, formatPrice } from "~/content/format";

describe("format", () => {
  it("writes prices in whole dirhams with the currency code", () => {
    expect(formatPrice(149, "AED").replace(/\s/g, " ")).toBe("AED 149");
    expect(formatPrice(299, "AED").replace(/\s/g, " ")).toBe("AED 299");
    expect(formatPrice(1499.6, "AED").replace(/\s/g, " ")).toBe("AED 1,500");
  });
  it("writes the rating with one decimal", () => {
    expect(formatDecimal(4.8)).toBe("4.8");
    expect(formatDecimal(5)).toBe("5.0");
  });
  it("reads dates on Dubai's calendar, not the server's", () => {
    // 21:00 UTC on 14 June is already 15 June in Dubai.
    expect(formatDay(new Date("2026-06-14T21:00:00Z"))).toBe("15 June");
  });

  describe("in Arabic (ar-AE, Western digits)", () => {
    const AR = "ar-AE-u-nu-latn";
    // Intl marks the direction of a price with U+200F (RLM): kept, but left out of the comparison.
    const plain = (text: string) => text.replace(/[\u200e\u200f]/g, "").replace(/\s/g, " ");

    it("writes prices after the amount, with the dirham's Arabic sign", () => {
      expect(plain(formatPrice(149, "AED", AR))).toBe("149 د.إ.");
      expect(plain(formatPrice(1499.6, "AED", AR))).toBe("1,500 د.إ.");
    });
    it("keeps Western digits, never Arabic-Indic ones", () => {
      for (const text of [
        formatPrice(299, "AED", AR),
        formatDecimal(4.8, AR),
        formatDay(new Date("2026-06-14T21:00:00Z"), AR),
      ]) {
        expect(text).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9]/);
      }
      expect(formatDecimal(4.8, AR)).toBe("4.8");
    });
    it("names the month in Arabic, on Dubai's calendar", () => {
      expect(formatDay(new Date("2026-06-14T21:00:00Z"), AR)).toBe("15 يونيو");
    });
  });

  describe("a date with its year, as the download note writes it", () => {
    it("is Dubai's calendar day, in English and in Arabic with Western digits", () => {
      const deadline = new Date("2027-06-14T20:00:00Z");
      expect(formatDate(deadline)).toBe("15 June 2027");
      expect(formatDate(deadline, "ar-AE-u-nu-latn")).toBe("15 يونيو 2027");
      expect(formatDate(new Date("2027-06-14T19:59:59Z"))).toBe("14 June 2027");
    });
  });

  describe("the beta's close, written out", () => {
    const AR = "ar-AE-u-nu-latn";
    it("is the day alone at midnight in Dubai, which a date alone in BETA_CLOSES_AT means", () => {
      const midnight = new Date("2026-11-30T00:00:00+04:00");
      expect(formatClosing(midnight)).toBe("30 November");
      expect(formatClosing(midnight, AR)).toBe("30 نوفمبر");
    });
    it("adds Dubai's time of day otherwise, in Western digits", () => {
      const evening = new Date("2026-11-30T14:30:00Z");
      expect(formatClosing(evening).replace(/\s/g, " ")).toBe("30 November at 6:30 PM");
      expect(
        formatClosing(evening, AR)
          .replace(/[\u200e\u200f]/g, "")
          .replace(/\s/g, " "),
      ).toBe("30 نوفمبر في 6:30 م");
    });
  });
});
