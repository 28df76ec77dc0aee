import { describe, expect, it } from "vitest";
import {
  CLIENT_EVENTS,
  cutUrl,
  fitParams,
  fitUrl,
  isClientEventName,
  LIMITS,
  validateBatch,
} from "~/shared/events";

const ONE_HOUR_MS = 60 * 60 * 1000;

/** The error a rejected body gets; fails the test if the body was accepted. */
function rejection(body: unknown): string {
  const result = validateBatch(body);
  if (result.ok) throw new Error(`expected ${JSON.stringify(body)} to be rejected`);
  return result.error;
}

function withParams(params: unknown) {
  return { events: [{ name: "cta_click", params }] };
}

describe("validateBatch: accepted bodies", () => {
  it("accepts a good batch and returns its events", () => {
    const result = validateBatch({
      events: [
        { name: "page_view", params: { page_path: "/", engagement_time_msec: 0 } },
        { name: "cta_click", params: { cta_id: "hero", position: 1, primary: true } },
        { name: "social_share" },
      ],
    });
    expect(result).toEqual({
      ok: true,
      events: [
        { name: "page_view", params: { page_path: "/", engagement_time_msec: 0 } },
        { name: "cta_click", params: { cta_id: "hero", position: 1, primary: true } },
        { name: "social_share", params: {} },
      ],
    });
  });

  it("accepts every client event name", () => {
    const result = validateBatch({ events: CLIENT_EVENTS.map((name) => ({ name })) });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.events.map((event) => event.name)).toEqual([...CLIENT_EVENTS]);
  });

  it("accepts the limits themselves: 25 events, 23 params (GA4's 25 less the server's two), 40-char names, 100-char values", () => {
    const params: Record<string, string> = {};
    for (let index = 0; index < 22; index++) params[`p${index}`] = "x".repeat(100);
    params[`a${"b".repeat(39)}`] = "ok";
    expect(Object.keys(params)).toHaveLength(23);
    const events = Array.from({ length: 25 }, () => ({ name: "cta_click", params }));
    expect(validateBatch({ events }).ok).toBe(true);
  });

  it("accepts engagement_time_msec at exactly 0 and exactly one hour", () => {
    expect(validateBatch(withParams({ engagement_time_msec: 0 })).ok).toBe(true);
    expect(validateBatch(withParams({ engagement_time_msec: ONE_HOUR_MS })).ok).toBe(true);
  });

  it("drops nothing it accepts and keeps values as sent", () => {
    const result = validateBatch(withParams({ label: "الدليل", n: -3.5, flag: false }));
    expect(result).toEqual({
      ok: true,
      events: [{ name: "cta_click", params: { label: "الدليل", n: -3.5, flag: false } }],
    });
  });
});

describe("validateBatch: rejected bodies", () => {
  it.each([
    ["null", null],
    ["a string", "events"],
    ["a number", 42],
    ["an array", [{ name: "page_view" }]],
  ])("rejects a body that is %s", (_label, body) => {
    expect(rejection(body)).toMatch(/body must be a JSON object/);
  });

  it.each([
    ["missing", {}],
    ["empty", { events: [] }],
    ["not an array", { events: { name: "page_view" } }],
  ])("rejects events that are %s", (_label, body) => {
    expect(rejection(body)).toMatch(/events must be a non-empty array/);
  });

  it("rejects 26 events", () => {
    const events = Array.from({ length: LIMITS.eventsPerRequest + 1 }, () => ({
      name: "page_view",
    }));
    expect(events).toHaveLength(26);
    expect(rejection({ events })).toMatch(/at most 25 events/);
  });

  it.each([null, "page_view", 7])("rejects an event that is not an object (%s)", (event) => {
    expect(rejection({ events: [{ name: "page_view" }, event] })).toMatch(
      /events\[1\] must be an object/,
    );
  });

  it.each(["conversion", "generate_lead", "purchase", "PAGE_VIEW", ""])(
    "rejects the event name %j, which a browser may not send",
    (name) => {
      expect(rejection({ events: [{ name: "page_view" }, { name }] })).toMatch(
        /events\[1\]\.name is not one of campaign_details, page_view, cta_click/,
      );
    },
  );

  it("rejects an event without a name", () => {
    expect(rejection({ events: [{ params: {} }] })).toMatch(/events\[0\]\.name is not one of/);
  });

  it.each([
    ["null", null],
    ["a string", "cta=hero"],
    ["an array", ["hero"]],
    ["a number", 1],
  ])("rejects params that are %s", (_label, params) => {
    expect(rejection(withParams(params))).toMatch(/events\[0\]\.params must be an object/);
  });

  it("rejects 24 params: with session_id and engagement_time_msec GA4 would get 26", () => {
    const params = Object.fromEntries(Array.from({ length: 24 }, (_, index) => [`p${index}`, 1]));
    expect(rejection(withParams(params))).toMatch(/params has more than 23 entries/);
  });

  it("rejects a parameter name over 40 characters", () => {
    const name = `a${"b".repeat(40)}`;
    expect(name).toHaveLength(41);
    expect(rejection(withParams({ [name]: "x" }))).toMatch(/parameter name that is not allowed/);
  });

  it.each(["1st_click", "cta-id", "_private", "with space", "ünicode", ""])(
    "rejects the parameter name %j",
    (name) => {
      expect(rejection(withParams({ [name]: "x" }))).toMatch(
        /events\[0\] has a parameter name that is not allowed/,
      );
    },
  );

  it.each(["ga_session_number", "google_thing", "firebase_screen", "session_id"])(
    "rejects the reserved parameter name %j",
    (name) => {
      expect(rejection(withParams({ [name]: "x" }))).toMatch(/parameter name that is not allowed/);
    },
  );

  it("allows names that merely contain the reserved words", () => {
    expect(validateBatch(withParams({ my_ga_id: 1, session_ids: 2, a_google_x: 3 })).ok).toBe(true);
  });

  it.each([
    ["page_location", 1000],
    ["page_referrer", 420],
    ["page_title", 300],
  ])("takes GA4's own limit for %s: %s characters", (name, limit) => {
    expect(validateBatch(withParams({ [name]: "x".repeat(limit) })).ok).toBe(true);
    expect(rejection(withParams({ [name]: "x".repeat(limit + 1) }))).toMatch(
      new RegExp(`params\\.${name} is longer than ${limit} characters`),
    );
  });

  it("takes a batch's session_id only as a string of digits", () => {
    const batch = { events: [{ name: "page_view", params: {} }] };
    expect(validateBatch({ ...batch, session_id: "1764000000" })).toMatchObject({
      ok: true,
      sessionId: "1764000000",
    });
    for (const bad of [1764000000, "", "17640x", "1".repeat(21), null]) {
      expect(rejection({ ...batch, session_id: bad }), String(bad)).toMatch(/session_id/);
    }
  });

  it("rejects a string value over 100 characters", () => {
    expect(rejection(withParams({ label: "x".repeat(101) }))).toMatch(
      /events\[0\]\.params\.label is longer than 100 characters/,
    );
  });

  it.each([NaN, Infinity, -Infinity])("rejects the number %s", (value) => {
    expect(rejection(withParams({ value }))).toMatch(
      /events\[0\]\.params\.value is not a finite number/,
    );
  });

  it.each([
    ["an object", { nested: 1 }],
    ["an array", [1, 2]],
    ["null", null],
  ])("rejects a value that is %s", (_label, value) => {
    expect(rejection(withParams({ value }))).toMatch(
      /events\[0\]\.params\.value must be a string, number or boolean/,
    );
  });

  it.each([-1, ONE_HOUR_MS + 1])("rejects engagement_time_msec of %s", (value) => {
    expect(rejection(withParams({ engagement_time_msec: value }))).toMatch(
      /engagement_time_msec is out of range/,
    );
  });

  it("names the offending event by its index", () => {
    const body = {
      events: [
        { name: "page_view", params: { ok: 1 } },
        { name: "cta_click", params: { ok: 2 } },
        { name: "cta_click", params: { bad: "x".repeat(101) } },
      ],
    };
    expect(rejection(body)).toMatch(/^events\[2\]\.params\.bad /);
  });
});

describe("isClientEventName", () => {
  it("knows the client events and nothing else", () => {
    expect(isClientEventName("page_view")).toBe(true);
    expect(isClientEventName("generate_lead")).toBe(false);
    expect(isClientEventName(undefined)).toBe(false);
  });
});

describe("fitParams", () => {
  it("cuts the page's location, referrer and title to GA4's limits for them", () => {
    const out = fitParams({
      page_location: `https://darb.example/?q=${"l".repeat(2000)}`,
      page_referrer: "r".repeat(500),
      page_title: "t".repeat(400),
    });
    expect(out.page_location).toHaveLength(1000);
    expect(out.page_referrer).toHaveLength(420);
    expect(out.page_title).toHaveLength(300);
  });

  it("never cuts through a surrogate pair", () => {
    const out = fitParams({ label: `${"x".repeat(99)}🚗` });
    expect(out.label).toBe("x".repeat(99));
  });

  it("cuts strings to 100 characters and keeps shorter ones", () => {
    const out = fitParams({ long: "y".repeat(101), short: "hi", exact: "z".repeat(100) });
    expect(out).toEqual({ long: "y".repeat(100), short: "hi", exact: "z".repeat(100) });
  });

  it("drops bad and reserved names, undefined values and non-finite numbers", () => {
    const out = fitParams({
      keep: 1,
      "bad-name": 1,
      "1st": 1,
      [`a${"b".repeat(40)}`]: 1,
      ga_x: 1,
      google_x: 1,
      firebase_x: 1,
      session_id: 1,
      missing: undefined,
      nan: NaN,
      inf: Infinity,
      flag: false,
    });
    expect(out).toEqual({ keep: 1, flag: false });
  });

  it("keeps at most 23 params, the first ones", () => {
    const params = Object.fromEntries(
      Array.from({ length: 30 }, (_, index) => [`p${index}`, index]),
    );
    const out = fitParams(params);
    expect(Object.keys(out)).toHaveLength(23);
    expect(out.p0).toBe(0);
    expect(out.p22).toBe(22);
    expect(out).not.toHaveProperty("p23");
  });

  it("produces params that validateBatch accepts", () => {
    const params = fitParams({
      label: "x".repeat(500),
      "bad-name": "x",
      session_id: "s",
      n: NaN,
      ok: true,
    });
    expect(validateBatch({ events: [{ name: "cta_click", params }] }).ok).toBe(true);
  });
});

describe("fitUrl: link_url within 100 characters, cut at a character", () => {
  it("keeps a URL that fits as it is, reads escapes when that keeps more, never splits one", () => {
    expect(fitUrl("https://wa.me/1?text=a%20b")).toBe("https://wa.me/1?text=a%20b");
    const english = `https://wa.me/971500000000?text=${encodeURIComponent(`Hi, I'd like ${"x".repeat(80)}`)}`;
    expect(fitUrl(english)).toBe(
      `https://wa.me/971500000000?text=Hi, I'd like ${"x".repeat(80)}`.slice(0, 100),
    );
    const arabic = `https://wa.me/1?text=${encodeURIComponent("مرحبا درب ".repeat(20))}`;
    expect(fitUrl(arabic)).toMatch(/^https:\/\/wa\.me\/1\?text=مرحبا درب/);
    expect(fitUrl(arabic).length).toBeLessThanOrEqual(100);
    // What would change the URL's meaning stays escaped, and is never cut in half.
    expect(fitUrl(`https://x.example/?q=${"%26".repeat(40)}`)).toBe(
      `https://x.example/?q=${"%26".repeat(26)}`,
    );
    // Not UTF-8: kept as it is, cut before a whole escape.
    expect(cutUrl("ab%20c", 4)).toBe("ab");
    expect(cutUrl("a%D8%A7b", 5)).toBe("a");
    expect(cutUrl("a%D8%A7b", 7)).toBe("a%D8%A7");
    expect(cutUrl("a😀b", 2)).toBe("a");
  });
});
