import { describe, expect, it } from "vitest";
import { suggestedLocale } from "~/pages/language-hint.server";
import { HINT_COOKIE } from "~/shared/language-cookie";

const headers = (init: Record<string, string>) => new Headers(init);

describe("suggestedLocale", () => {
  it("suggests Arabic on an English page to a visitor who prefers Arabic", () => {
    expect(suggestedLocale(headers({ "accept-language": "ar-AE,ar;q=0.9,en;q=0.8" }), "en")).toBe(
      "ar",
    );
    expect(suggestedLocale(headers({ "accept-language": "fr;q=1,ar;q=0.5" }), "en")).toBe("ar");
  });

  it("suggests nothing when the page is already in the visitor's first language", () => {
    expect(suggestedLocale(headers({ "accept-language": "en-GB,ar;q=0.9" }), "en")).toBeNull();
    expect(suggestedLocale(headers({ "accept-language": "ar" }), "ar")).toBeNull();
  });

  it("suggests English on an Arabic page to a visitor who prefers English", () => {
    expect(suggestedLocale(headers({ "accept-language": "en-US,en;q=0.9" }), "ar")).toBe("en");
  });

  it("respects quality values over order", () => {
    expect(suggestedLocale(headers({ "accept-language": "en;q=0.3, ar;q=0.8" }), "en")).toBe("ar");
  });

  it("suggests nothing once dismissed, without a header, or for a header it cannot read", () => {
    const prefersArabic = { "accept-language": "ar" };
    expect(
      suggestedLocale(headers({ ...prefersArabic, cookie: `a=1; ${HINT_COOKIE}=off` }), "en"),
    ).toBeNull();
    expect(suggestedLocale(headers({}), "en")).toBeNull();
    expect(suggestedLocale(headers({ "accept-language": "de, fr;q=0.5" }), "en")).toBeNull();
    expect(suggestedLocale(headers({ "accept-language": "<script>;q=x, ,;;" }), "en")).toBeNull();
  });
});
