import { describe, expect, it } from "vitest";
import { isPrefetched, isVisitorsNavigation, mayTrack, visitorFor } from "~/leads/visitor.server";

const headers = (init: Record<string, string>) => new Headers(init);
const phone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";

describe("visitorFor", () => {
  const options = { salt: "a-salt-of-sixteen+", now: new Date("2026-11-22T10:00:00Z") };
  const a = { address: "203.0.113.9", userAgent: phone };

  it("is stable for the same visitor on the same Dubai day, in GA's id shape", () => {
    const first = visitorFor(a, options);
    expect(first.clientId).toMatch(/^\d+\.\d+$/);
    expect(first.sessionId).toMatch(/^\d+$/);
    expect(visitorFor(a, { ...options, now: new Date("2026-11-22T19:59:00Z") })).toEqual(first);
  });
  it("changes at midnight in Dubai, with another address, agent or salt", () => {
    const first = visitorFor(a, options).clientId;
    expect(visitorFor(a, { ...options, now: new Date("2026-11-22T20:00:00Z") }).clientId).not.toBe(
      first,
    );
    expect(visitorFor({ address: "203.0.113.10", userAgent: phone }, options).clientId).not.toBe(
      first,
    );
    expect(visitorFor({ address: "203.0.113.9", userAgent: "other" }, options).clientId).not.toBe(
      first,
    );
    expect(visitorFor(a, { ...options, salt: "another-salt-value!" }).clientId).not.toBe(first);
  });
  it("never carries the address or agent in the id", () => {
    const { clientId, sessionId } = visitorFor(a, options);
    expect(`${clientId}${sessionId}`).not.toContain("203");
  });
  it("keeps the address and user agent beside the ids, for GA4's location and device", () => {
    expect(visitorFor(a, options)).toMatchObject({ address: "203.0.113.9", userAgent: phone });
  });
});

describe("mayTrack", () => {
  it("tracks a person's browser", () =>
    expect(mayTrack(headers({ "user-agent": phone }))).toBe(true));
  it("does not track Global Privacy Control", () =>
    expect(mayTrack(headers({ "user-agent": phone, "sec-gpc": "1" }))).toBe(false));
  it.each([
    "Googlebot/2.1 (+http://www.google.com/bot.html)",
    "facebookexternalhit/1.1",
    "curl/8.5.0",
    "",
  ])("does not track %j", (agent) =>
    expect(mayTrack(headers({ "user-agent": agent }))).toBe(false),
  );
});

describe("isPrefetched", () => {
  const request = (extra: Record<string, string>) =>
    new Request("https://darb.example/thank-you?cta=whatsapp", { headers: extra });
  it.each<Record<string, string>>([
    { purpose: "prefetch" },
    { "sec-purpose": "prefetch" },
    { "sec-purpose": "prefetch;prerender" },
    { "sec-purpose": "Prefetch; anonymous-client-ip" },
    { "x-moz": "prefetch" },
  ])("takes %j for a prefetch", (extra) => expect(isPrefetched(request(extra))).toBe(true));
  it.each<Record<string, string>>([
    {},
    { "sec-purpose": "prefetchy" },
    { "sec-fetch-dest": "document" },
  ])("takes %j for a visitor's own request", (extra) =>
    expect(isPrefetched(request(extra))).toBe(false),
  );
});

describe("isVisitorsNavigation", () => {
  const IPHONE =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";
  const request = (method: string, headers: Record<string, string> = {}) =>
    new Request("https://darb.example/thank-you?cta=whatsapp", {
      method,
      headers: { "user-agent": IPHONE, ...headers },
    });

  it("is a phone's GET of the page, and nothing else", () => {
    expect(isVisitorsNavigation(request("GET"))).toBe(true);
    expect(isVisitorsNavigation(request("GET", { "sec-fetch-dest": "document" }))).toBe(true);
    expect(isVisitorsNavigation(request("HEAD"))).toBe(false);
    expect(isVisitorsNavigation(request("GET", { "sec-fetch-dest": "empty" }))).toBe(false);
    expect(isVisitorsNavigation(request("GET", { "sec-purpose": "prefetch" }))).toBe(false);
    expect(isVisitorsNavigation(request("GET", { "sec-gpc": "1" }))).toBe(false);
    expect(isVisitorsNavigation(request("GET", { "user-agent": "Googlebot/2.1" }))).toBe(false);
  });
});
