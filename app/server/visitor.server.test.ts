import { describe, expect, it } from "vitest";
import { clientAddress, mayTrack, visitorFor } from "~/server/visitor.server";

const headers = (init: Record<string, string>) => new Headers(init);
const phone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";

describe("clientAddress", () => {
  it("trusts nothing when no proxy is configured", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.9" }), 0)).toBeNull();
  });
  it("takes the entry our own proxy appended, not what the client wrote", () => {
    const h = headers({ "x-forwarded-for": "1.2.3.4, 203.0.113.9" });
    expect(clientAddress(h, 1)).toBe("203.0.113.9");
    expect(clientAddress(h, 2)).toBe("1.2.3.4");
  });
  it("refuses what is not an address", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "evil" }), 1)).toBeNull();
    expect(clientAddress(headers({ "x-forwarded-for": "1.2.3.4" }), 2)).toBeNull();
    expect(clientAddress(headers({}), 1)).toBeNull();
  });
});

describe("visitorFor", () => {
  const options = {
    salt: "a-salt-of-sixteen+",
    trustProxy: 1,
    now: new Date("2026-11-22T10:00:00Z"),
  };
  const a = headers({ "user-agent": phone, "x-forwarded-for": "203.0.113.9" });

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
    expect(
      visitorFor(headers({ "user-agent": phone, "x-forwarded-for": "203.0.113.10" }), options)
        .clientId,
    ).not.toBe(first);
    expect(
      visitorFor(headers({ "user-agent": "other", "x-forwarded-for": "203.0.113.9" }), options)
        .clientId,
    ).not.toBe(first);
    expect(visitorFor(a, { ...options, salt: "another-salt-value!" }).clientId).not.toBe(first);
  });
  it("never carries the address or agent in the id", () => {
    const { clientId, sessionId } = visitorFor(a, options);
    expect(`${clientId}${sessionId}`).not.toContain("203");
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
