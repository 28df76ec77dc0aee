import { describe, expect, it } from "vitest";
import { formatDay, formatDecimal, formatPrice } from "~/lib/format";

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
});
