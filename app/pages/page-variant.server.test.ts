import { describe, expect, it } from "vitest";
import { pageVariant, variantKey } from "~/pages/page-variant.server";
import { rootData } from "~/pages/root-data.server";
import { testContext } from "../../tests/support/request-context";
import { IPHONE_SAFARI_18 } from "../../tests/support/user-agents";

const at = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, {
    headers: { "user-agent": IPHONE_SAFARI_18, ...headers },
  });

describe("pageVariant", () => {
  it("reads the language, campaign, preview wording and language offer of one request", () => {
    const request = at("/ar/share?utm_source=Instagram&platform=whatsapp", {
      "accept-language": "en-GB,en;q=0.9",
    });
    expect(pageVariant(new URL(request.url), request.headers)).toEqual({
      locale: "ar",
      campaign: { utm_source: "Instagram" },
      platform: "whatsapp",
      offer: "en",
    });
  });

  it("gives reordered parameters and junk the key of the clean page", () => {
    const key = (path: string) => variantKey(pageVariant(new URL(path, "http://x"), new Headers()));
    expect(key("/?utm_medium=cpc&utm_source=ig&junk=1")).toBe(
      key("/?utm_source=ig&utm_medium=cpc"),
    );
    expect(key("/")).toMatch(/ $/);
  });

  it("is what the root's data shows: the cache key and the render cannot disagree", () => {
    const request = at("/?utm_source=ig&utm_campaign=Eid", { "accept-language": "ar" });
    const variant = pageVariant(new URL(request.url), request.headers);
    const data = rootData(request, testContext());
    expect(data.locale).toBe(variant.locale);
    expect(data.platform).toBe(variant.platform);
    expect(data.suggest).toBe(variant.offer !== null);
    expect(data.campaignQuery).toBe(variantKey(variant).split(" ").at(-1));
  });
});
