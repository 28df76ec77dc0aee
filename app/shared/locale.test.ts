import { describe, expect, it } from "vitest";
import { basePath, isLocale, localeOfPath, localePath, pathInLocale } from "~/shared/locale";

describe("locale paths", () => {
  it("reads the language from the path alone", () => {
    expect(localeOfPath("/")).toBe("en");
    expect(localeOfPath("/share")).toBe("en");
    expect(localeOfPath("/ar")).toBe("ar");
    expect(localeOfPath("/ar/")).toBe("ar");
    expect(localeOfPath("/ar/thank-you")).toBe("ar");
    // Only the whole segment counts.
    expect(localeOfPath("/arabic")).toBe("en");
    expect(localeOfPath("/share/ar")).toBe("en");
  });

  it("puts English paths into a language", () => {
    expect(localePath("en", "/share")).toBe("/share");
    expect(localePath("ar", "/")).toBe("/ar");
    expect(localePath("ar", "/share")).toBe("/ar/share");
    expect(localePath("ar", "/#faq")).toBe("/ar#faq");
    expect(localePath("ar", "/?source=x")).toBe("/ar?source=x");
    expect(localePath("ar", "/thank-you?cta=email")).toBe("/ar/thank-you?cta=email");
  });

  it("finds the same page in the other language", () => {
    expect(basePath("/ar")).toBe("/");
    expect(basePath("/ar/share")).toBe("/share");
    expect(basePath("/share")).toBe("/share");
    expect(pathInLocale("/", "ar")).toBe("/ar");
    expect(pathInLocale("/ar/sitemap", "en")).toBe("/sitemap");
    expect(pathInLocale("/ar", "en")).toBe("/");
    expect(pathInLocale("/nope", "ar")).toBe("/ar/nope");
  });

  it("never makes a path another site could be read from", () => {
    expect(basePath("/ar//evil.example")).toBe("/evil.example");
    expect(basePath("/ar/\\evil.example")).toBe("/evil.example");
    expect(basePath("//evil.example")).toBe("/evil.example");
    expect(pathInLocale("/ar//evil.example", "en")).toBe("/evil.example");
    expect(pathInLocale("//evil.example", "ar")).toBe("/ar/evil.example");
  });

  it("knows its languages and nothing else", () => {
    expect(isLocale("ar")).toBe(true);
    expect(isLocale("fr")).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
});
