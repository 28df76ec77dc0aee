import { describe, expect, it } from "vitest";
import { choosePlatform, platformOfCrawler, wordingFor } from "~/shared/platform";

const params = (query: string) => new URLSearchParams(query);
const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

describe("platformOfCrawler", () => {
  it.each([
    ["facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebook"],
    ["Facebot", "facebook"],
    ["Twitterbot/1.0", "twitter"],
    ["WhatsApp/2.23.20.0 A", "whatsapp"],
    ["WhatsApp/2.2413.51 i", "whatsapp"],
  ])("knows %s", (agent, platform) => {
    expect(platformOfCrawler(agent)).toBe(platform);
  });

  it("takes a person's browser for nobody in particular", () => {
    expect(platformOfCrawler(PHONE)).toBeNull();
    expect(platformOfCrawler(null)).toBeNull();
    expect(platformOfCrawler("")).toBeNull();
  });
});

describe("choosePlatform", () => {
  it("uses ?platform=, then the source, then the default", () => {
    expect(choosePlatform(params("platform=whatsapp"), PHONE)).toBe("whatsapp");
    expect(choosePlatform(params("platform=X"), PHONE)).toBe("twitter");
    expect(choosePlatform(params("source=facebook"), PHONE)).toBe("facebook");
    expect(choosePlatform(params("platform=twitter&source=facebook"), PHONE)).toBe("twitter");
    expect(choosePlatform(params(""), PHONE)).toBe("default");
  });

  it("lets the crawler that builds the preview decide over the link's parameters", () => {
    expect(choosePlatform(params("source=facebook"), "WhatsApp/2.23.20.0 A")).toBe("whatsapp");
    expect(choosePlatform(params("platform=twitter"), "facebookexternalhit/1.1")).toBe("facebook");
  });

  it("ignores values it does not know, whatever they hold", () => {
    for (const value of [
      "linkedin",
      "<script>",
      "whatsapp ",
      "",
      "%00",
      "__proto__",
      "constructor",
    ]) {
      expect(choosePlatform(params(`platform=${encodeURIComponent(value)}`), PHONE)).toBe(
        value === "whatsapp " ? "whatsapp" : "default",
      );
    }
  });
});

describe("wordingFor", () => {
  const wording = { default: "Plain", whatsapp: "For WhatsApp" };
  it("picks the platform's wording and falls back to the default", () => {
    expect(wordingFor(wording, "whatsapp")).toBe("For WhatsApp");
    expect(wordingFor(wording, "twitter")).toBe("Plain");
    expect(wordingFor("Only one", "facebook")).toBe("Only one");
  });
});
