import { afterEach, describe, expect, it } from "vitest";
import {
  CALL_TIMEOUT_MS,
  createOutbox,
  type Outbox,
  type OutboxOptions,
  type Post,
  UNCERTAIN_RESEND_AFTER_MS,
} from "~/analytics/outbox.server";
import { ga4Stamp, MAX_BACKDATE_MS, META_MAX_AGE_MS } from "~/analytics/sink.server";
import type { Journal } from "~/leads/ledger/journal.server";
import {
  createLedger,
  type LeadRecord,
  type Ledger,
  type LedgerEntry,
  type NewCall,
} from "~/leads/ledger/ledger.server";
import { PostError } from "~/platform/http-post.server";

const T0 = 1_764_000_000_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const GA_URL = "https://www.google-analytics.com/mp/collect?measurement_id=G-1&api_secret=s";
const META_URL = "https://graph.facebook.com/v23.0/123/events";

/** GA4's and Meta's outboxes as the sink makes them. */
const GA4 = {
  destination: "ga4",
  deduplicates: false,
  maxAgeMs: MAX_BACKDATE_MS,
  stamp: (call, sentAt) => ga4Stamp(call.body, call.at, sentAt),
} satisfies Partial<OutboxOptions>;
const META = {
  destination: "meta",
  deduplicates: true,
  maxAgeMs: META_MAX_AGE_MS,
} satisfies Partial<OutboxOptions>;

/**
 * The outbox's clock and timers, moved by the test: `advance` runs each timer at its time and
 * lets every answer settle before the next, so hours pass in milliseconds.
 */
function fakeClock(start = T0) {
  let time = start;
  let order = 0;
  const timers = new Set<{ at: number; order: number; run: () => void }>();
  return {
    now: () => time,
    setTimer(run: () => void, ms: number) {
      const timer = { at: time + ms, order: order++, run };
      timers.add(timer);
      return { cancel: () => void timers.delete(timer) };
    },
    timers: () => timers.size,
    async advance(ms: number) {
      const end = time + ms;
      await settled();
      for (let sameTime = 0; ; sameTime++) {
        if (sameTime > 1000) throw new Error("timers keep firing without time passing");
        let next: { at: number; order: number; run: () => void } | undefined;
        for (const timer of timers) {
          if (timer.at > end) continue;
          if (!next || timer.at < next.at || (timer.at === next.at && timer.order < next.order))
            next = timer;
        }
        if (!next) break;
        timers.delete(next);
        if (next.at > time) sameTime = 0;
        time = Math.max(time, next.at);
        next.run();
        await settled();
      }
      time = end;
    },
  };
}
type Clock = ReturnType<typeof fakeClock>;

/** Every promise that can settle has (the posts here answer without I/O). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * How the destination answers the nth call: a status; "no answer" (the body went out, then the
 * timeout); "not sent" (refused before the body went out); "hold" (out until released or
 * aborted); "deaf" (out until released, whatever the signal says).
 */
type Reply = number | "no answer" | "not sent" | "hold" | "deaf";

function fakePost(clock: Clock, reply: (n: number, body: string) => Reply = () => 204) {
  const calls: Array<{
    url: string;
    body: string;
    at: number;
    timeoutMs: number;
    signal?: AbortSignal;
  }> = [];
  const held: Array<(status: number) => void> = [];
  let out = 0;
  let mostOut = 0;
  const post: Post = (url, body, options) => {
    calls.push({
      url: url.href,
      body,
      at: clock.now(),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    const answer = reply(calls.length, body);
    if (answer === "not sent") return Promise.reject(new PostError("connect ECONNREFUSED", false));
    options.onBodySent?.();
    if (answer === "no answer")
      return Promise.reject(new PostError(`no answer within ${options.timeoutMs} ms`, true));
    if (typeof answer === "number") return Promise.resolve(answer);
    out += 1;
    mostOut = Math.max(mostOut, out);
    return new Promise<number>((resolve, reject) => {
      held.push((status) => {
        out -= 1;
        resolve(status);
      });
      if (answer === "hold")
        options.signal?.addEventListener("abort", () => reject(new PostError("aborted", true)), {
          once: true,
        });
    });
  };
  return {
    post,
    calls,
    bodies: () => calls.map((call) => call.body),
    /** Answers the oldest call still out. */
    release: (status = 204) => held.shift()?.(status),
    held: () => held.length,
    mostOut: () => mostOut,
  };
}

const boxes: Outbox[] = [];
afterEach(() => {
  for (const box of boxes.splice(0)) box.close();
});

function outboxFor(
  kind: typeof GA4 | typeof META,
  ledger: Ledger,
  clock: Clock,
  post: Post,
): Outbox {
  const box = createOutbox({ ...kind, ledger, post, now: clock.now, setTimer: clock.setTimer });
  boxes.push(box);
  return box;
}

/** An outbox as outboxFor makes it, with `options` on top, and the lines it logs, parsed. */
function loggingOutbox(
  kind: typeof GA4 | typeof META,
  ledger: Ledger,
  clock: Clock,
  post: Post,
  options: Partial<OutboxOptions> = {},
) {
  const lines: Array<Record<string, unknown>> = [];
  const box = createOutbox({
    ...kind,
    ledger,
    post,
    now: clock.now,
    setTimer: clock.setTimer,
    log: (line) => lines.push(JSON.parse(line)),
    ...options,
  });
  boxes.push(box);
  return { box, lines };
}

let serial = 0;
function gaCall(overrides: Partial<NewCall> = {}): NewCall {
  serial += 1;
  return {
    destination: "ga4",
    url: GA_URL,
    body: JSON.stringify({ client_id: "1.2", events: [{ name: "page_view", params: { serial } }] }),
    events: 1,
    at: T0,
    ...overrides,
  };
}

function metaCall(overrides: Partial<NewCall> = {}): NewCall {
  serial += 1;
  return {
    destination: "meta",
    url: META_URL,
    body: JSON.stringify({ data: [{ event_name: "Lead", event_id: `lead-${serial}` }] }),
    events: 1,
    at: T0,
    ...overrides,
  };
}

function leadRecord(id: string): LeadRecord {
  return {
    id,
    at: T0,
    cta: "whatsapp",
    campaign: {},
    clientId: "1.2",
    sessionId: "3",
    status: "new",
  };
}

const none = { delivered: 0, refused: 0, unconfirmed: 0, given_up: 0 };

/** Relative times of the calls made, from the first. */
const gaps = (calls: Array<{ at: number }>) =>
  calls.slice(1).map((call, index) => call.at - (calls[index]?.at ?? 0));

describe("what becomes of a call", () => {
  it.each([200, 202, 204])("leaves the ledger delivered on a %s", async (status) => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => status);
    const box = outboxFor(GA4, ledger, clock, ga.post);
    const call = gaCall({ events: 3 });
    box.sent(ledger.recordCalls([call]));
    await clock.advance(0);

    expect(ga.calls).toEqual([
      {
        url: GA_URL,
        body: call.body,
        at: T0,
        timeoutMs: CALL_TIMEOUT_MS,
        signal: expect.any(AbortSignal),
      },
    ]);
    expect(ledger.pendingCalls("ga4")).toEqual([]);
    expect(box.outcomes()).toEqual({ ...none, delivered: 3 });
    expect(box.stats()).toEqual({
      recorded: 3,
      sent: 3,
      retried: 0,
      dropped: 0,
      unconfirmed: 0,
      queued: 0,
      oldest_ms: 0,
    });
    await clock.advance(DAY);
    expect(ga.calls).toHaveLength(1);
  });

  it.each([400, 404, 413, 422])("is refused on a %s and never sent again", async (status) => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => status);
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls([gaCall({ events: 2 })]));
    await clock.advance(DAY);

    expect(ga.calls).toHaveLength(1);
    expect(ledger.pendingCalls("ga4")).toEqual([]);
    expect(box.outcomes()).toEqual({ ...none, refused: 2 });
    expect(box.stats()).toMatchObject({
      recorded: 2,
      sent: 0,
      retried: 0,
      dropped: 2,
      queued: 0,
    });
  });

  it.each([401, 403])(
    "is held on a %s (the site's credentials), said once, and sent every 30 s until taken",
    async (status) => {
      const clock = fakeClock();
      const ledger = createLedger();
      const meta = fakePost(clock, (n) => (n <= 3 ? status : 200));
      const { box, lines } = loggingOutbox(META, ledger, clock, meta.post);
      box.sent(ledger.recordLead(leadRecord("lead-7"), [metaCall({ lead: "lead-7" })]));
      await clock.advance(0);
      expect(meta.calls).toHaveLength(1);
      expect(ledger.pendingCalls("meta")).toHaveLength(1);
      await clock.advance(29_999);
      expect(meta.calls).toHaveLength(1);
      await clock.advance(1);
      expect(meta.calls).toHaveLength(2);
      await clock.advance(60_000);
      expect(meta.calls).toHaveLength(4);
      expect(gaps(meta.calls)).toEqual([30_000, 30_000, 30_000]);
      expect(box.outcomes()).toEqual({ ...none, delivered: 1 });
      expect(box.troubles()).toEqual({ uncertain: 0, credentialsRefused: 3 });
      expect(lines).toEqual([
        expect.objectContaining({
          type: "delivery_refused",
          destination: "meta",
          lead: "lead-7",
          status,
          held: expect.stringContaining("credentials"),
        }),
      ]);
    },
  );

  it("gives a new call its first try while others are held for credentials, so each refusal is said at once", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const meta = fakePost(clock, () => 400);
    const { box, lines } = loggingOutbox(META, ledger, clock, meta.post, {
      judge: () => ({ kind: "credentials", code: "190" }),
    });
    box.sent(ledger.recordCalls([metaCall({ lead: "a" })]));
    await clock.advance(1000);
    box.sent(ledger.recordCalls([metaCall({ lead: "b" })]));
    await clock.advance(1000);
    expect(meta.calls).toHaveLength(2);
    expect(lines.map((line) => line.lead)).toEqual(["a", "b"]);
    // The held ones wait out the pause together.
    await clock.advance(28_000);
    expect(meta.calls).toHaveLength(2);
    await clock.advance(2000);
    expect(meta.calls).toHaveLength(4);
    expect(lines).toHaveLength(2);
  });

  it("gives up a call held for credentials once the destination would refuse its age, and says so", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const meta = fakePost(clock, () => 401);
    const { box, lines } = loggingOutbox(META, ledger, clock, meta.post);
    box.sent(ledger.recordCalls([metaCall({ lead: "lead-8" })]));
    await clock.advance(META_MAX_AGE_MS + HOUR);
    expect(ledger.pendingCalls("meta")).toEqual([]);
    expect(box.outcomes()).toEqual({ ...none, given_up: 1 });
    expect(lines.map((line) => line.type)).toEqual(["delivery_refused", "delivery_given_up"]);
    expect(lines[1]).toMatchObject({ lead: "lead-8", status: 401 });
  });

  it("says each call refused for good in one line: the platform's code and message, never a secret", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const answer = JSON.stringify({
      error: {
        message: "Invalid parameter: token tok_live_SECRET123 is bad",
        code: 100,
        error_subcode: 2804,
      },
    });
    const post: Post = async (_url, _body, options) => {
      options.onBodySent?.();
      options.onAnswer?.(answer);
      return 400;
    };
    const { box, lines } = loggingOutbox(META, ledger, clock, post, {
      secrets: ["tok_live_SECRET123"],
    });
    box.sent(ledger.recordCalls([metaCall({ lead: "lead-9" }), metaCall({ lead: "lead-10" })]));
    await clock.advance(0);
    expect(lines).toEqual([
      {
        type: "delivery_refused",
        destination: "meta",
        lead: "lead-9",
        events: 1,
        attempt: 1,
        status: 400,
        code: "100/2804",
        message: "Invalid parameter: token [secret] is bad",
      },
      expect.objectContaining({ lead: "lead-10", code: "100/2804" }),
    ]);
    expect(JSON.stringify(lines)).not.toContain("SECRET123");
  });

  it("adds the credential to the address only as the call is sent", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => 204);
    const { box } = loggingOutbox(GA4, ledger, clock, ga.post, {
      address: (url) => {
        const address = new URL(url);
        address.searchParams.set("api_secret", "live-secret");
        return address;
      },
    });
    const [call] = ledger.recordCalls([
      gaCall({ url: "https://ga.example/mp/collect?measurement_id=G-1" }),
    ]);
    expect(call?.url).not.toContain("live-secret");
    box.sent(call ? [call] : []);
    await clock.advance(0);
    expect(ga.calls[0]?.url).toBe(
      "https://ga.example/mp/collect?measurement_id=G-1&api_secret=live-secret",
    );
  });

  it.each([
    ["a 408", 408],
    ["a 429", 429],
    ["a 500", 500],
    ["a 503", 503],
    ["a refused connection", "not sent"],
  ] as const)(
    "is sent again after %s: 1 s, 2 s, 4 s … then every 30 s",
    async (_label, failure) => {
      const clock = fakeClock();
      const ledger = createLedger();
      const ga = fakePost(clock, (n) => (n <= 8 ? failure : 204));
      const box = outboxFor(GA4, ledger, clock, ga.post);
      box.sent(ledger.recordCalls([gaCall({ events: 2 })]));
      await clock.advance(0);

      const waits = [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000];
      for (const [index, wait] of waits.entries()) {
        expect(ga.calls).toHaveLength(index + 1);
        expect(ledger.pendingCalls("ga4")[0]?.attempt).toBe(index + 1);
        await clock.advance(wait - 1);
        expect(ga.calls).toHaveLength(index + 1);
        await clock.advance(1);
      }
      expect(ga.calls).toHaveLength(9);
      expect(gaps(ga.calls)).toEqual(waits);
      expect(box.outcomes()).toEqual({ ...none, delivered: 2 });
      expect(box.stats()).toMatchObject({ sent: 2, retried: 16, dropped: 0, queued: 0 });
    },
  );

  it("Meta: a call sent without an answer is sent again, the same, until Meta answers", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const meta = fakePost(clock, (n) => (n <= 2 ? "no answer" : 200));
    const box = outboxFor(META, ledger, clock, meta.post);
    const call = metaCall();
    box.sent(ledger.recordCalls([call]));
    await clock.advance(10_000);

    expect(meta.bodies()).toEqual([call.body, call.body, call.body]);
    expect(gaps(meta.calls)).toEqual([1000, 2000]);
    expect(box.outcomes()).toEqual({ ...none, delivered: 1 });
    expect(box.stats()).toMatchObject({ sent: 1, retried: 2, unconfirmed: 0 });
  });

  it("GA4: a lead's call sent without an answer is sent once more after 10 minutes, dated", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, (n) => (n === 1 ? "no answer" : 204));
    const box = outboxFor(GA4, ledger, clock, ga.post);
    const call = gaCall({ lead: "lead-1", events: 2 });
    box.sent(ledger.recordLead(leadRecord("lead-1"), [call]));
    await clock.advance(0);
    expect(ga.calls).toHaveLength(1);
    expect(ledger.pendingCalls("ga4")[0]).toMatchObject({ uncertain: 1 });

    // No pause for the destination: another call goes out at once.
    const other = gaCall({ at: T0 + 1000 });
    await clock.advance(1000);
    box.sent(ledger.recordCalls([other]));
    await clock.advance(0);
    expect(ga.bodies()).toEqual([call.body, other.body]);

    await clock.advance(UNCERTAIN_RESEND_AFTER_MS - 1001);
    expect(ga.calls).toHaveLength(2);
    await clock.advance(1);
    expect(ga.calls).toHaveLength(3);
    expect(ga.calls[2]?.at).toBe(T0 + UNCERTAIN_RESEND_AFTER_MS);
    expect(JSON.parse(ga.calls[2]?.body ?? "")).toEqual({
      timestamp_micros: T0 * 1000,
      ...JSON.parse(call.body),
    });
    expect(box.outcomes()).toEqual({ ...none, delivered: 3 });
    expect(ledger.pendingCalls("ga4")).toEqual([]);
  });

  it("GA4: a lead's call without an answer twice is unconfirmed, never sent a third time", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => "no answer");
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordLead(leadRecord("lead-1"), [gaCall({ lead: "lead-1", events: 2 })]));
    await clock.advance(DAY);

    expect(ga.calls).toHaveLength(2);
    expect(gaps(ga.calls)).toEqual([UNCERTAIN_RESEND_AFTER_MS]);
    expect(box.outcomes()).toEqual({ ...none, unconfirmed: 2 });
    expect(box.stats()).toMatchObject({ unconfirmed: 2, retried: 2, sent: 0, dropped: 0 });
    expect(ledger.pendingCalls("ga4")).toEqual([]);
  });

  it("GA4: any other call sent without an answer is unconfirmed at once, never sent again", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => "no answer");
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls([gaCall({ events: 25 })]));
    await clock.advance(0);
    expect(box.outcomes()).toEqual({ ...none, unconfirmed: 25 });
    expect(ledger.pendingCalls("ga4")).toEqual([]);
    await clock.advance(DAY);
    expect(ga.calls).toHaveLength(1);
    expect(box.stats()).toMatchObject({ recorded: 25, unconfirmed: 25, retried: 0 });
  });
});

describe("the destination's pause", () => {
  it("holds a new call too while the destination recovers from a failure", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, (n) => (n === 1 ? 500 : 204));
    const box = outboxFor(GA4, ledger, clock, ga.post);
    const first = gaCall();
    box.sent(ledger.recordCalls([first]));
    await clock.advance(100);
    const second = gaCall({ at: T0 + 100 });
    box.sent(ledger.recordCalls([second]));
    await clock.advance(899);
    expect(ga.calls).toHaveLength(1);
    await clock.advance(1);
    expect(ga.calls).toHaveLength(3);
    expect(ga.calls.slice(1).map((call) => call.at)).toEqual([T0 + 1000, T0 + 1000]);
    expect(ga.bodies().slice(1).sort()).toEqual([first.body, second.body].sort());
    expect(box.outcomes()).toEqual({ ...none, delivered: 2 });
  });

  it("counts calls that fail together as one failure: four 500s wait 1 s, not 8 s", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, (n) => (n <= 8 ? 500 : 204));
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls(Array.from({ length: 4 }, () => gaCall())));
    await clock.advance(0);
    expect(ga.calls).toHaveLength(4);
    await clock.advance(999);
    expect(ga.calls).toHaveLength(4);
    await clock.advance(1);
    expect(ga.calls).toHaveLength(8);
    // The second round failed too: one step more, 2 s.
    await clock.advance(1999);
    expect(ga.calls).toHaveLength(8);
    await clock.advance(1);
    expect(ga.calls).toHaveLength(12);
    expect(box.outcomes()).toEqual({ ...none, delivered: 4 });
  });

  it("ends with a success: the next failure waits 1 s again", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, (n) => (n === 1 || n === 2 || n === 4 ? 503 : 204));
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls([gaCall()]));
    await clock.advance(10_000);
    expect(gaps(ga.calls)).toEqual([1000, 2000]);
    box.sent(ledger.recordCalls([gaCall({ at: clock.now() })]));
    await clock.advance(10_000);
    expect(ga.calls).toHaveLength(5);
    expect(ga.calls[4]?.at).toBe((ga.calls[3]?.at ?? 0) + 1000);
  });

  it("is not started by a refusal: the next call goes out at once", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, (n) => (n === 1 ? 400 : 204));
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls([gaCall()]));
    await clock.advance(0);
    box.sent(ledger.recordCalls([gaCall()]));
    await clock.advance(0);
    expect(ga.calls.map((call) => call.at)).toEqual([T0, T0]);
    expect(box.outcomes()).toEqual({ ...none, refused: 1, delivered: 1 });
  });
});

describe("how long a call is kept", () => {
  it("GA4: dates a call sent 2 s or more after its events, and not sooner", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, (n) => (n <= 2 ? 500 : 204));
    const box = outboxFor(GA4, ledger, clock, ga.post);
    const call = gaCall({ at: T0 });
    box.sent(ledger.recordCalls([call]));
    await clock.advance(5000);

    expect(ga.calls.map((each) => each.at - T0)).toEqual([0, 1000, 3000]);
    expect(ga.calls[0]?.body).toBe(call.body);
    expect(ga.calls[1]?.body).toBe(call.body);
    expect(ga.calls[2]?.body).toBe(`{"timestamp_micros":${T0 * 1000},${call.body.slice(1)}`);
  });

  it("GA4: gives up a call its next try would send past 72 hours, instead of misdating it", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => 503);
    const box = outboxFor(GA4, ledger, clock, ga.post);
    // 20 s of GA4's 72 hours left.
    const at = T0 - MAX_BACKDATE_MS + 20_000;
    box.sent(ledger.recordCalls([gaCall({ at, events: 4 })]));
    await clock.advance(HOUR);

    // Sent at 0, 1, 3, 7 and 15 s; the next would be at 31 s, past the limit.
    expect(ga.calls.map((call) => call.at - T0)).toEqual([0, 1000, 3000, 7000, 15_000]);
    for (const call of ga.calls) expect(JSON.parse(call.body).timestamp_micros).toBe(at * 1000);
    expect(box.outcomes()).toEqual({ ...none, given_up: 4 });
    expect(box.stats()).toMatchObject({ dropped: 4, retried: 16, queued: 0 });
    expect(ledger.pendingCalls("ga4")).toEqual([]);
  });

  it("Meta: keeps sending through an outage, every 30 s at most, until the event is 7 days old", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const meta = fakePost(clock, () => 500);
    const box = outboxFor(META, ledger, clock, meta.post);
    // Meta has been down for all but the last hour of the event's week.
    const at = T0 - META_MAX_AGE_MS + HOUR;
    box.sent(ledger.recordCalls([metaCall({ at })]));
    await clock.advance(HOUR - 60_000);
    expect(box.outcomes()).toEqual(none);
    expect(ledger.pendingCalls("meta")).toHaveLength(1);
    expect(box.stats()).toMatchObject({ queued: 1, oldest_ms: META_MAX_AGE_MS - 60_000 });

    await clock.advance(2 * HOUR);
    expect(box.outcomes()).toEqual({ ...none, given_up: 1 });
    expect(ledger.pendingCalls("meta")).toEqual([]);
    const last = meta.calls.at(-1)?.at ?? 0;
    expect(last).toBeLessThanOrEqual(at + META_MAX_AGE_MS);
    expect(last).toBeGreaterThan(at + META_MAX_AGE_MS - 60_000);
    expect(Math.max(...gaps(meta.calls))).toBe(30_000);
    // 1 + 2 + 4 + 8 + 16 s, then every 30 s for the rest of the hour.
    expect(meta.calls.length).toBeGreaterThan(HOUR / 30_000);
  });

  it.each([
    ["GA4", GA4, gaCall, MAX_BACKDATE_MS],
    ["Meta", META, metaCall, META_MAX_AGE_MS],
  ] as const)(
    "%s: gives up a call already past its limit without sending it",
    async (_name, kind, make, maxAge) => {
      const clock = fakeClock();
      const ledger = createLedger();
      const destination = fakePost(clock);
      const box = outboxFor(kind, ledger, clock, destination.post);
      box.sent(ledger.recordCalls([make({ at: T0 - maxAge - 1 }), make({ at: T0 - maxAge })]));
      await clock.advance(0);
      // The one exactly at the limit still goes.
      expect(destination.calls).toHaveLength(1);
      expect(box.outcomes()).toEqual({ ...none, given_up: 1, delivered: 1 });
    },
  );
});

describe("order and concurrency", () => {
  it("sends in the order the calls were recorded, four at a time", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => "hold");
    const box = outboxFor(GA4, ledger, clock, ga.post);
    const calls = [0, 1, 2, 3, 4, 5].map((age) => gaCall({ at: T0 - age * 100 }));
    box.sent(ledger.recordCalls(calls));
    await clock.advance(0);
    expect(ga.bodies()).toEqual([0, 1, 2, 3].map((index) => calls[index]?.body));
    expect(ga.held()).toBe(4);
    ga.release();
    await clock.advance(0);
    expect(ga.calls).toHaveLength(5);
    while (ga.held() > 0) {
      ga.release();
      await clock.advance(0);
    }
    expect(ga.calls).toHaveLength(6);
    expect(ga.mostOut()).toBe(4);
    expect(box.outcomes()).toEqual({ ...none, delivered: 6 });
  });

  it("takes only its own destination's calls", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock);
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls([gaCall(), metaCall()]));
    await clock.advance(0);
    expect(ga.calls.map((call) => call.url)).toEqual([GA_URL]);
    expect(ledger.pendingCalls("meta")).toHaveLength(1);
    expect(box.stats().queued).toBe(0);
  });
});

describe("stats", () => {
  it("counts what is owed and how long the oldest has waited", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => "hold");
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls([gaCall({ at: T0 - 5000, events: 25 }), gaCall({ events: 3 })]));
    await clock.advance(0);
    expect(box.stats()).toMatchObject({ recorded: 28, queued: 28, oldest_ms: 5000, sent: 0 });
    await clock.advance(2000);
    expect(box.stats().oldest_ms).toBe(7000);
    ga.release();
    ga.release();
    await clock.advance(0);
    expect(box.stats()).toMatchObject({ recorded: 28, queued: 0, oldest_ms: 0, sent: 28 });
  });
});

describe("flush", () => {
  it("sends what waits for its backoff at once, and resolves when it is answered", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, (n) => (n === 1 ? 503 : 204));
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls([gaCall({ events: 3 })]));
    await clock.advance(0);
    expect(ga.calls).toHaveLength(1);

    let done = false;
    const flushed = box.flush(5000).then(() => {
      done = true;
    });
    await settled();
    await flushed;
    expect(done).toBe(true);
    expect(clock.now()).toBe(T0);
    expect(ga.calls.map((call) => call.at)).toEqual([T0, T0]);
    expect(box.outcomes()).toEqual({ ...none, delivered: 3 });
    await clock.advance(HOUR);
    expect(ga.calls).toHaveLength(2);
  });

  it("sends everything owed, four at a time, and waits for every answer", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => "hold");
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls(Array.from({ length: 10 }, () => gaCall())));
    let done = false;
    const flushed = box.flush(5000).then(() => {
      done = true;
    });
    for (let answered = 0; answered < 10; answered++) {
      await settled();
      expect(done).toBe(false);
      ga.release();
    }
    await flushed;
    expect(ga.calls).toHaveLength(10);
    expect(ga.mostOut()).toBe(4);
    expect(box.outcomes()).toEqual({ ...none, delivered: 10 });
  });

  it("resolves by its deadline and leaves what was not answered owed, unsettled", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => "hold");
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls(Array.from({ length: 6 }, () => gaCall({ events: 25 }))));
    let done = false;
    const flushed = box.flush(300).then(() => {
      done = true;
    });
    await clock.advance(299);
    expect(done).toBe(false);
    await clock.advance(1);
    await flushed;
    expect(ga.calls).toHaveLength(4);
    expect(box.outcomes()).toEqual(none);
    expect(box.stats()).toMatchObject({
      recorded: 150,
      queued: 150,
      sent: 0,
      dropped: 0,
      unconfirmed: 0,
    });
    expect(ledger.pendingCalls("ga4")).toHaveLength(6);
  });

  it("keeps a call that fails during the flush owed, not dropped", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => 500);
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls([gaCall({ events: 3 })]));
    await clock.advance(0);
    await box.flush(5000);
    // Once before the flush, once in it; no retry waited for.
    expect(ga.calls.map((call) => call.at)).toEqual([T0, T0]);
    expect(box.outcomes()).toEqual(none);
    expect(box.stats()).toMatchObject({ queued: 3, dropped: 0, retried: 6 });
    expect(ledger.pendingCalls("ga4")).toHaveLength(1);
  });

  it("resolves at once when nothing is owed", async () => {
    const clock = fakeClock();
    const box = outboxFor(GA4, createLedger(), clock, fakePost(clock).post);
    await box.flush(5000);
    expect(clock.now()).toBe(T0);
    expect(clock.timers()).toBe(0);
  });

  it("never spends GA4's late try of a lead's call: it keeps its time, shutdown or not", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    // Connections reset after the body: an outage in which nothing is answered.
    const ga = fakePost(clock, (n) => (n <= 2 ? "no answer" : 204));
    const box = outboxFor(GA4, ledger, clock, ga.post);
    const first = gaCall({ lead: "lead-1" });
    box.sent(ledger.recordLead(leadRecord("lead-1"), [first]));
    await clock.advance(0);
    expect(ledger.pendingCalls("ga4")[0]).toMatchObject({ uncertain: 1 });
    // A lead recorded during the outage goes out in the flush, and is uncertain too.
    const second = gaCall({ lead: "lead-2" });
    ledger.recordLead(leadRecord("lead-2"), [second]);
    await box.flush(5000);
    expect(ga.bodies()).toEqual([first.body, second.body]);
    const owed = ledger.pendingCalls("ga4");
    expect(owed.map((call) => call.uncertain)).toEqual([1, 1]);
    expect(owed[0]?.dueAt).toBe(T0 + UNCERTAIN_RESEND_AFTER_MS);
    expect(box.outcomes()).toEqual(none);
    expect(box.troubles().uncertain).toBe(2);
    // Its time comes: each is sent once more, dated, and taken.
    await clock.advance(UNCERTAIN_RESEND_AFTER_MS);
    expect(ga.calls).toHaveLength(4);
    expect(box.outcomes()).toEqual({ ...none, delivered: 2 });
  });

  it("waits quietly with a call recorded while it runs, and sends it once the flush is over", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, (n) => (n === 1 ? "hold" : 204));
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls([gaCall()]));
    await clock.advance(0);
    const flushed = box.flush(1000);
    const late = gaCall();
    box.sent(ledger.recordCalls([late]));
    await clock.advance(1000);
    await flushed;
    await clock.advance(0);
    expect(ga.bodies()).toContain(late.body);
    expect(box.outcomes()).toEqual({ ...none, delivered: 1 });
  });
});

describe("room while a destination is down", () => {
  it("gives up the oldest browser events past the ceiling, never a lead's, and says so twice", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    let up = false;
    const ga = fakePost(clock, () => (up ? 204 : "not sent"));
    const { box, lines } = loggingOutbox(GA4, ledger, clock, ga.post, {
      maxBrowserCalls: 3,
    });
    const lead = gaCall({ lead: "lead-1", events: 4 });
    box.sent(ledger.recordLead(leadRecord("lead-1"), [lead]));
    const batches = Array.from({ length: 6 }, () => gaCall({ browser: true, events: 2 }));
    for (const batch of batches) {
      box.sent(ledger.recordCalls([batch]));
      await clock.advance(100);
    }
    const owed = ledger.pendingCalls("ga4");
    expect(owed.map((call) => call.body)).toEqual([
      lead.body,
      ...batches.slice(3).map((batch) => batch.body),
    ]);
    expect(ledger.browserCallsOwed("ga4")).toBe(3);
    expect(box.outcomes()).toEqual({ ...none, given_up: 6 });
    expect(lines).toEqual([expect.objectContaining({ type: "delivery_room", state: "full" })]);
    up = true;
    await clock.advance(60_000);
    box.sent(ledger.recordCalls([gaCall({ browser: true })]));
    await clock.advance(1000);
    expect(ledger.pendingCalls("ga4")).toEqual([]);
    expect(lines.at(-1)).toMatchObject({
      type: "delivery_room",
      state: "room again",
      given_up_events: 6,
    });
  });

  it("trims what a restart brought back past the ceiling before it sends", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    ledger.recordCalls(Array.from({ length: 5 }, () => gaCall({ browser: true })));
    const ga = fakePost(clock, () => "not sent");
    const box = createOutbox({
      ...GA4,
      ledger,
      post: ga.post,
      now: clock.now,
      setTimer: clock.setTimer,
      maxBrowserCalls: 2,
    });
    boxes.push(box);
    await clock.advance(0);
    expect(ledger.browserCallsOwed("ga4")).toBe(2);
    expect(box.outcomes().given_up).toBe(3);
  });
});

describe("close", () => {
  it("abandons what is out: its late answer is ignored and it stays owed", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock, () => "deaf");
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.sent(ledger.recordCalls([gaCall({ events: 2 })]));
    await clock.advance(0);
    box.close();
    expect(ga.calls[0]?.signal?.aborted).toBe(true);
    ga.release(204);
    await clock.advance(0);
    expect(box.outcomes()).toEqual(none);
    expect(box.stats()).toMatchObject({ sent: 0, queued: 2 });
    expect(ledger.pendingCalls("ga4")).toHaveLength(1);
  });

  it("sends nothing more, though what is recorded is still kept", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const ga = fakePost(clock);
    const box = outboxFor(GA4, ledger, clock, ga.post);
    box.close();
    box.sent(ledger.recordCalls([gaCall({ events: 5 })]));
    await clock.advance(HOUR);
    await box.flush(1000);
    expect(ga.calls).toEqual([]);
    expect(box.stats()).toMatchObject({ recorded: 5, queued: 5 });
  });
});

/** A journal kept as the lines a file would hold, for a ledger to be read back from. */
function linesJournal() {
  let lines: string[] = [];
  const journal: Journal<LedgerEntry> = {
    append: (entry) => {
      lines.push(JSON.stringify(entry));
    },
    rewrite: (entries) => {
      lines = [...entries].map((entry) => JSON.stringify(entry));
      return true;
    },
    bytes: () => lines.join("\n").length,
    state: () => ({ failing: null, failingSince: null, held: 0 }),
    close: () => {},
  };
  /** The ledger a process starting now would read. */
  const start = (now: () => number) =>
    createLedger({
      journal,
      now,
      replay: (onLine) => {
        for (const [index, line] of [...lines].entries()) onLine(JSON.parse(line), index + 1);
      },
    });
  return { start };
}

describe("after a restart", () => {
  it("a new outbox on the same ledger sends what the first left", async () => {
    const clock = fakeClock();
    const ledger = createLedger();
    const down = fakePost(clock, () => 503);
    const first = outboxFor(GA4, ledger, clock, down.post);
    first.sent(ledger.recordCalls([gaCall({ events: 2 }), gaCall({ events: 3 })]));
    await clock.advance(0);
    first.close();
    // Recorded while nothing was sending.
    first.sent(ledger.recordCalls([gaCall({ events: 4 })]));
    expect(first.stats()).toMatchObject({ recorded: 9, queued: 9, sent: 0, dropped: 0 });

    const up = fakePost(clock);
    const second = outboxFor(GA4, ledger, clock, up.post);
    await clock.advance(0);
    // A start is a new chance: what failed before goes at once, with what was never tried.
    expect(up.calls).toHaveLength(3);
    expect(second.stats()).toMatchObject({ recorded: 0, sent: 9, queued: 0 });
    expect(ledger.pendingCalls("ga4")).toEqual([]);
  });

  it("after a crash: what was out is treated as sent without an answer, the rest sent dated", async () => {
    const clock = fakeClock();
    const disk = linesJournal();
    const before = disk.start(clock.now);
    const ga = fakePost(clock, () => "hold");
    const meta = fakePost(clock, () => "hold");
    const gaBox = outboxFor(GA4, before, clock, ga.post);
    const metaBox = outboxFor(META, before, clock, meta.post);
    const event = gaCall();
    const leadGa = gaCall({ lead: "lead-1", events: 2 });
    const leadMeta = metaCall({ lead: "lead-1" });
    gaBox.sent(before.recordCalls([event]));
    const leadCalls = before.recordLead(leadRecord("lead-1"), [leadGa, leadMeta]);
    gaBox.sent(leadCalls);
    metaBox.sent(leadCalls);
    await clock.advance(0);
    expect(ga.held() + meta.held()).toBe(3);
    // Never tried: recorded as the process went down.
    gaBox.close();
    metaBox.close();
    const waiting = gaCall();
    before.recordCalls([waiting]);

    // The process starts again an hour later, from what the journal holds.
    await clock.advance(HOUR);
    const after = disk.start(clock.now);
    const ga2 = fakePost(clock);
    const meta2 = fakePost(clock);
    const gaAgain = outboxFor(GA4, after, clock, ga2.post);
    const metaAgain = outboxFor(META, after, clock, meta2.post);
    await clock.advance(0);
    // GA4 keeps every copy: the batch that may have arrived is not sent again.
    expect(ga2.bodies()).toEqual([`{"timestamp_micros":${T0 * 1000},${waiting.body.slice(1)}`]);
    expect(gaAgain.outcomes()).toMatchObject({ unconfirmed: 1, delivered: 1 });

    // Meta drops repeats: its Lead goes again.
    await clock.advance(1000);
    expect(meta2.bodies()).toEqual([leadMeta.body]);
    expect(metaAgain.outcomes()).toEqual({ ...none, delivered: 1 });

    // The lead's GA4 call gets its one more try after the pause.
    await clock.advance(UNCERTAIN_RESEND_AFTER_MS - 1001);
    expect(ga2.calls).toHaveLength(1);
    await clock.advance(1);
    expect(ga2.calls).toHaveLength(2);
    expect(JSON.parse(ga2.calls[1]?.body ?? "")).toEqual({
      timestamp_micros: T0 * 1000,
      ...JSON.parse(leadGa.body),
    });
    expect(gaAgain.outcomes()).toEqual({ ...none, unconfirmed: 1, delivered: 3 });
    expect(after.pendingCalls("ga4")).toEqual([]);
    expect(after.pendingCalls("meta")).toEqual([]);
  });

  it("sends what waited up to the destination's limit while the server was down, and no older", async () => {
    const clock = fakeClock();
    const disk = linesJournal();
    const before = disk.start(clock.now);
    const late = gaCall({ at: T0 + 1 });
    before.recordCalls([gaCall({ events: 2 }), late, metaCall(), metaCall({ at: T0 + 1 })]);
    // Down for 72 hours, then for 7 days.
    await clock.advance(MAX_BACKDATE_MS + 1);
    const ga = fakePost(clock);
    const gaBox = outboxFor(GA4, disk.start(clock.now), clock, ga.post);
    await clock.advance(0);
    expect(ga.bodies()).toEqual([`{"timestamp_micros":${(T0 + 1) * 1000},${late.body.slice(1)}`]);
    expect(gaBox.outcomes()).toEqual({ ...none, given_up: 2, delivered: 1 });

    await clock.advance(META_MAX_AGE_MS - MAX_BACKDATE_MS);
    const meta = fakePost(clock);
    const metaBox = outboxFor(META, disk.start(clock.now), clock, meta.post);
    await clock.advance(0);
    expect(meta.calls).toHaveLength(1);
    expect(metaBox.outcomes()).toEqual({ ...none, given_up: 1, delivered: 1 });
  });
});
