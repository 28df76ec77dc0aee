import { describe, expect, it } from "vitest";
import {
  attributionOf,
  attributionOfRequest,
  CAMPAIGN_COOKIE,
  campaignCookieValue,
  cookiesOf,
  FBP_COOKIE,
  isFbp,
  keptCampaignOf,
  leadCampaign,
  newFbp,
} from "~/leads/attribution-cookies.server";
import type { Attribution } from "~/shared/attribution";

const NOW = Date.parse("2026-11-28T10:00:00Z");
const DAY = 86_400_000;
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

const visit = (
  query: string,
  cookie?: string,
  options: Partial<Parameters<typeof attributionOf>[1]> = {},
) =>
  attributionOf(
    { search: new URLSearchParams(query), cookie },
    { now: NOW, tracked: true, meta: false, secure: true, ...options },
  );

/** The cookie header a browser would send back after `result`. */
const sentBack = (result: Attribution) =>
  result.setCookies.map((cookie) => cookie.split(";", 1)[0]).join("; ");

describe("the kept campaign", () => {
  it("is set by a tagged visit, HttpOnly, Lax, Secure behind TLS, for 90 days, with its time", () => {
    const result = visit("utm_source=ig&utm_campaign=Eid&gclid=G1");
    expect(result.setCookies).toEqual([
      `${CAMPAIGN_COOKIE}=utm_source=ig&utm_campaign=Eid&gclid=G1&at=${NOW}; Max-Age=7776000; Path=/; HttpOnly; SameSite=Lax; Secure`,
    ]);
    expect(result.kept).toEqual({
      campaign: { utm_source: "ig", utm_campaign: "Eid", gclid: "G1" },
      at: NOW,
    });
    expect(visit("gclid=G1", undefined, { secure: false }).setCookies[0]).not.toContain("Secure");
  });

  it("is read back on an untagged visit, and nothing is set again", () => {
    const first = visit("utm_source=ig&fbclid=F1");
    const later = attributionOf(
      { search: new URLSearchParams(""), cookie: `other=1; ${sentBack(first)}` },
      { now: NOW + DAY, tracked: true, meta: false, secure: true },
    );
    expect(later.kept).toEqual({ campaign: { utm_source: "ig", fbclid: "F1" }, at: NOW });
    expect(later.setCookies).toEqual([]);
  });

  it("is replaced by the next tagged visit (the last click that was not direct wins)", () => {
    const first = sentBack(visit("utm_source=ig&fbclid=F1"));
    const second = visit("utm_source=google&gclid=G2", first);
    expect(second.kept?.campaign).toEqual({ utm_source: "google", gclid: "G2" });
    expect(second.setCookies).toHaveLength(1);
    // `source=direct` is no campaign: the kept one stays.
    expect(visit("source=direct", first).kept?.campaign).toEqual({
      utm_source: "ig",
      fbclid: "F1",
    });
  });

  it("keeps its first time when the same tagged address comes again (a reload)", () => {
    const first = sentBack(visit("utm_source=ig&fbclid=F1"));
    const reload = attributionOf(
      { search: new URLSearchParams("utm_source=ig&fbclid=F1"), cookie: first },
      { now: NOW + 60_000, tracked: true, meta: false, secure: true },
    );
    expect(reload.setCookies).toEqual([]);
    expect(reload.kept?.at).toBe(NOW);
  });

  it("drops each click id after its network's window, and the words after 90 days", () => {
    const value = campaignCookieValue(
      { utm_source: "ads", gclid: "G", fbclid: "F", ttclid: "T", ScCid: "S" },
      NOW,
    );
    const at = (days: number) => keptCampaignOf(value ?? "", NOW + days * DAY)?.campaign;
    expect(at(6.9)).toEqual({
      utm_source: "ads",
      gclid: "G",
      fbclid: "F",
      ttclid: "T",
      ScCid: "S",
    });
    expect(at(7.1)).toEqual({ utm_source: "ads", gclid: "G", ScCid: "S" });
    expect(at(28.1)).toEqual({ utm_source: "ads", gclid: "G" });
    expect(at(89.9)).toEqual({ utm_source: "ads", gclid: "G" });
    expect(at(90.1)).toBeUndefined();
    // Only an expired click id, nothing else: nothing left to credit.
    expect(
      keptCampaignOf(campaignCookieValue({ fbclid: "F" }, NOW) ?? "", NOW + 8 * DAY),
    ).toBeNull();
  });

  it("believes no cookie it did not write: a time to come, no time, junk, a cookie too long", () => {
    expect(keptCampaignOf(`utm_source=x&at=${NOW + DAY}`, NOW)).toBeNull();
    expect(keptCampaignOf("utm_source=x", NOW)).toBeNull();
    expect(keptCampaignOf("utm_source=x&at=12", NOW)).toBeNull();
    expect(keptCampaignOf("%E0%A4%A", NOW)).toBeNull();
    expect(keptCampaignOf(`utm_source=${"x".repeat(3000)}&at=${NOW}`, NOW)).toBeNull();
    // What it does take is cleaned as a URL's campaign is.
    expect(keptCampaignOf(`utm_source=%E2%80%AEig%00x&at=${NOW}`, NOW)?.campaign).toEqual({
      utm_source: "ig x",
    });
  });

  it("fits a long Arabic campaign by dropping the least telling words, else keeps none", () => {
    const arabic = "حملة رمضان للسائقين في دبي ".repeat(4).slice(0, 100);
    const campaign = {
      source: arabic,
      utm_source: arabic,
      utm_medium: arabic,
      utm_campaign: arabic,
      utm_term: arabic,
      utm_content: arabic,
      utm_id: arabic,
      gclid: "G1",
    };
    const value = campaignCookieValue(campaign, NOW) ?? "";
    expect(value.length).toBeLessThanOrEqual(3000);
    const kept = keptCampaignOf(value, NOW)?.campaign;
    expect(kept?.gclid).toBe("G1");
    expect(kept?.utm_source).toBe(arabic.trim());
    expect(kept?.utm_id).toBeUndefined();
    // The cookie a too-long campaign cannot replace is cleared, not left to be credited.
    const older = sentBack(visit("utm_source=old"));
    const clicks = Object.fromEntries(
      ["gclid", "gbraid", "wbraid", "fbclid", "ttclid", "ScCid"].map((id) => [id, "x".repeat(500)]),
    );
    const tooLong = visit(new URLSearchParams(clicks).toString(), older);
    expect(tooLong.setCookies).toEqual([
      `${CAMPAIGN_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure`,
    ]);
    expect(tooLong.kept).toBeNull();
  });

  it("keeps nothing for a visitor who may not be tracked, and clears what an earlier visit left", () => {
    const earlier = sentBack(visit("gclid=G1", undefined, { meta: true }));
    const gpc = attributionOf(
      { search: new URLSearchParams("gclid=G2"), cookie: earlier },
      { now: NOW, tracked: false, meta: true, secure: true },
    );
    expect(gpc.kept).toBeNull();
    expect(gpc.fbp).toBeNull();
    expect(gpc.setCookies).toHaveLength(2);
    expect(gpc.setCookies).toContain(
      `${CAMPAIGN_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(gpc.setCookies).toContain(
      `${FBP_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(
      attributionOf(
        { search: new URLSearchParams("gclid=G2"), cookie: undefined },
        { now: NOW, tracked: false, meta: true, secure: true },
      ).setCookies,
    ).toEqual([]);
  });
});

describe("Meta's browser id", () => {
  it("is made once in Meta's shape while Meta is a destination, then kept", () => {
    const first = visit("", undefined, { meta: true });
    expect(first.fbp).toMatch(new RegExp(`^fb\\.1\\.${NOW}\\.[0-9]{10}$`));
    expect(first.setCookies).toEqual([
      `${FBP_COOKIE}=${first.fbp}; Max-Age=7776000; Path=/; HttpOnly; SameSite=Lax; Secure`,
    ]);
    const again = visit("", sentBack(first), { meta: true });
    expect(again.fbp).toBe(first.fbp);
    expect(again.setCookies).toEqual([]);
    expect(visit("", undefined, { meta: false })).toEqual({
      kept: null,
      fbp: null,
      setCookies: [],
    });
  });

  it("takes only an id of Meta's shape, and makes a new one for anything else", () => {
    expect(isFbp("fb.1.1558571054389.1098115397")).toBe(true);
    expect(isFbp(newFbp(NOW))).toBe(true);
    for (const bad of [
      "fb.1.155857105438.1",
      "fb.1.1558571054389.",
      "x",
      "fb.1.1558571054389.1<b>",
    ]) {
      expect(isFbp(bad)).toBe(false);
      expect(visit("", `${FBP_COOKIE}=${bad}`, { meta: true }).fbp).not.toBe(bad);
    }
    expect(newFbp(NOW)).not.toBe(newFbp(NOW));
  });
});

describe("a lead's campaign", () => {
  const kept = { campaign: { utm_source: "ig", fbclid: "F1" }, at: NOW - 3 * DAY };

  it("is its link's when the link carries one, else the kept one with its fbclid's first sight", () => {
    expect(leadCampaign({ campaign: {} }, kept)).toEqual({
      campaign: kept.campaign,
      fbclidAt: kept.at,
    });
    expect(leadCampaign({ campaign: { utm_source: "tiktok", ttclid: "T" } }, kept)).toEqual({
      campaign: { utm_source: "tiktok", ttclid: "T" },
    });
    expect(leadCampaign({ campaign: {} }, null)).toEqual({ campaign: {} });
    // The same click on the link keeps its first sight from the earlier visit.
    expect(leadCampaign({ campaign: kept.campaign, fbclidAt: NOW }, kept).fbclidAt).toBe(kept.at);
  });
});

describe("which requests keep anything", () => {
  const config = {
    siteUrl: "https://darb.example",
    destinations: [{ name: "meta" }] as never,
  };
  const ask = (path: string, init: Record<string, string> = {}, method = "GET") =>
    attributionOfRequest(
      config,
      {
        method,
        url: new URL(`https://darb.example${path}`),
        headers: new Headers({ "user-agent": IPHONE, ...init }),
      },
      NOW,
    );

  it("a visitor's page: the landing page, another page, /thank-you", () => {
    for (const path of ["/?gclid=G", "/ar/share?gclid=G", "/thank-you?cta=whatsapp&gclid=G"]) {
      const result = ask(path, { "sec-fetch-dest": "document" });
      expect(result?.kept?.campaign, path).toEqual({ gclid: "G" });
      expect(result?.fbp, path).toMatch(/^fb\.1\./);
    }
  });

  it("nothing for files, assets, APIs, data requests, HEADs, prefetches, images and frames", () => {
    for (const [path, init, method] of [
      ["/favicon.ico?gclid=G", {}, "GET"],
      ["/build/root-X.js?gclid=G", {}, "GET"],
      ["/api/events?gclid=G", {}, "GET"],
      ["/?gclid=G&_data=root", {}, "GET"],
      ["/?gclid=G", {}, "HEAD"],
      ["/?gclid=G", { "sec-purpose": "prefetch" }, "GET"],
      ["/?gclid=G", { "sec-fetch-dest": "image" }, "GET"],
      ["/?gclid=G", { "sec-fetch-dest": "iframe" }, "GET"],
    ] as const) {
      expect(ask(path, init, method), `${method} ${path}`).toBeNull();
    }
  });

  it("for a bot or Sec-GPC: 1, nothing kept (and an earlier visit's cookies cleared)", () => {
    expect(ask("/?gclid=G", { "user-agent": "Googlebot/2.1" })?.setCookies).toEqual([]);
    const gpc = ask("/?gclid=G", {
      "sec-gpc": "1",
      cookie: `${CAMPAIGN_COOKIE}=gclid=G&at=${NOW}`,
    });
    expect(gpc?.kept).toBeNull();
    expect(gpc?.setCookies).toEqual([
      `${CAMPAIGN_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure`,
    ]);
  });

  it("reads only its own cookies, the first of each name", () => {
    expect(
      cookiesOf(`a=1; ${CAMPAIGN_COOKIE}=one; ${CAMPAIGN_COOKIE}=two; junk; =x`, [CAMPAIGN_COOKIE]),
    ).toEqual(new Map([[CAMPAIGN_COOKIE, "one"]]));
  });
});
