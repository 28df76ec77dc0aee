/**
 * One destination's outbox (GA4's, Meta's, an ad network's), taking its calls from the lead ledger
 * (leads/ledger/ledger.server.ts), so that an outage, a restart or a crash loses nothing
 * (docs/decisions/016-lead-ledger.md). Recording never waits for it, and nothing here throws
 * past its caller.
 *
 * A call leaves the outbox only when it is confirmed (2xx) or refused for good (a 4xx other than
 * 408, 429 and the credentials'). Anything else is sent again, oldest first, with backoff, for as
 * long as the destination still takes the event (GA4 72 hours, Meta 7 days, …); then it is given
 * up. A call refused for the site's credentials (an expired token) is held and tried again every
 * 30 s until a new token is deployed. A call whose body went out without an answer may have
 * arrived: a destination that drops repeats (Meta, TikTok and Snap by event_id, Google Ads by
 * order id) is sent it again; GA4 does not, so a lead's call gets one more try 10 minutes later
 * (never spent by a shutdown inside the same outage) and any other call is counted as
 * unconfirmed (decision 008, amended by 016). While a destination is down, what it is owed of a
 * browser's events is bounded (the oldest given up past MAX_BROWSER_CALLS); a lead's or a
 * chat's call never is. Each call refused, given up or unconfirmed is one log line.
 */
import { retryDelay } from "~/analytics/backoff";
import {
  judgeStatus,
  type PlatformError,
  type Verdict,
  withoutSecretsIn,
} from "~/analytics/verdict.server";
import type {
  DestinationName,
  Ledger,
  NewCall,
  Outcome,
  PendingCall,
} from "~/leads/ledger/ledger.server";
import { PostError, postJson } from "~/platform/http-post.server";

/** How a call is sent: postJson's shape, so tests and the Redis copy can stand in for it. */
export type Post = typeof postJson;

/** Counted in events, since the process started. */
export type OutboxStats = {
  recorded: number;
  sent: number;
  retried: number;
  /** Refused for good, given up past the destination's limit, or no room to keep it. */
  dropped: number;
  unconfirmed: number;
  /** Owed now, whenever recorded (calls from before a restart too). */
  queued: number;
  /** How long the oldest owed event has waited (ms), 0 when none is. */
  oldest_ms: number;
};

export type Outcomes = Record<Outcome, number>;

/** Counted in events since start, beside the outcomes: what an operator is alerted on. */
export type Troubles = {
  /** Sent, no answer: may have arrived (GA4 may count a lead's twice, or not at all). */
  uncertain: number;
  /** Refused for the site's credentials: held, waiting for a new token. */
  credentialsRefused: number;
};

export type Outbox = {
  /** Notes calls the ledger has just recorded, and sends what is due. */
  sent: (calls: PendingCall[]) => void;
  /**
   * Sends what is owed now, once, without waiting for backoff, and waits at most `deadlineMs`
   * for the answers. What is left stays in the ledger for the next start. A GA4 lead's one late
   * try after no answer is not spent here: it waits for its time, across the restart.
   */
  flush: (deadlineMs: number) => Promise<void>;
  /** Stops sending; what is out is abandoned (the ledger knows it may have arrived). */
  close: () => void;
  stats: () => OutboxStats;
  outcomes: () => Outcomes;
  troubles: () => Troubles;
};

export const CALL_TIMEOUT_MS = 2000;
const CONCURRENCY = 4;
/** The longest a destination is left alone after failing: the backoff's ceiling. */
const MAX_PAUSE_MS = 30_000;
/** How long GA4 is given before a lead's call with no answer is sent once more. */
export const UNCERTAIN_RESEND_AFTER_MS = 10 * 60_000;
/**
 * Calls of a browser's events a destination may be owed (each up to 25 events, a few kB):
 * about 30 MB of ledger and memory. Past it, while the destination is down, the oldest go.
 */
export const MAX_BROWSER_CALLS = 10_000;

export type OutboxOptions = {
  destination: DestinationName;
  ledger: Ledger;
  /** Whether the destination drops a repeated event itself, so a call may be sent twice. */
  deduplicates: boolean;
  /** How far back the destination still takes an event (ms). */
  maxAgeMs: number;
  /**
   * The body as it is sent at `sentAt` (GA4 dates a late event; Meta's token goes in); null:
   * too late to send.
   */
  stamp?: (call: NewCall, sentAt: number) => string | null;
  /** Where the call goes as it is sent (GA4's secret goes into the query here, never earlier). */
  address?: (url: string) => URL;
  /**
   * The headers a call is sent with (a token, fetched or cached); a rejection is the
   * destination failing before anything was sent.
   */
  authorize?: () => Promise<Record<string, string>>;
  /** What an answer means (judgeStatus unless the destination speaks in its body). */
  judge?: (status: number, answer: string) => Verdict;
  /** Values never to be written in a log line, whatever a platform's message repeats. */
  secrets?: readonly string[];
  /** Where a refused, given-up or unconfirmed call is said, one line each. */
  log?: (line: string) => void;
  maxBrowserCalls?: number;
  post?: Post;
  now?: () => number;
  /** Timers, replaceable in tests. */
  setTimer?: (run: () => void, ms: number) => { cancel: () => void };
};

const realTimer = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
};

/** Why a call was given up: past the destination's age limit, or no room while it is down. */
type GivenUp = "age" | "room";

export function createOutbox(options: OutboxOptions): Outbox {
  const { ledger, destination } = options;
  const post = options.post ?? postJson;
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? realTimer;
  const judge = options.judge ?? judgeStatus;
  const log = options.log ?? (() => {});
  const secrets = options.secrets ?? [];
  const maxBrowserCalls = options.maxBrowserCalls ?? MAX_BROWSER_CALLS;
  const counts = { recorded: 0, sent: 0, retried: 0, dropped: 0, unconfirmed: 0 };
  const outcomes: Outcomes = { delivered: 0, refused: 0, unconfirmed: 0, given_up: 0 };
  const troubles: Troubles = { uncertain: 0, credentialsRefused: 0 };
  const inFlight = new Map<string, { promise: Promise<void>; abort: AbortController }>();
  /** Calls whose refusal for credentials has been said, so each is said once. */
  const heldSaid = new Set<string>();
  /** Since when browser events are given up for room, and how many; null while there is room. */
  let full: { since: number; events: number } | null = null;
  /** Consecutive failures of the destination itself: it is left alone while it recovers. */
  let failures = 0;
  let pausedUntil = 0;
  /**
   * Why: failing, nothing is sent until the pause ends; refusing the credentials, a new call
   * still has its first try (and its refusal said at once), only the held ones wait.
   */
  let pausedFor: "failing" | "credentials" = "failing";
  let wake: { cancel: () => void; at: number } | null = null;
  let closed = false;
  /** Flushing: everything owed is due now, once. */
  let flushing: Set<string> | null = null;

  function say(type: string, call: PendingCall, fields: Record<string, unknown> = {}) {
    log(
      JSON.stringify({
        type,
        destination,
        ...(call.lead ? { lead: call.lead } : {}),
        events: call.events,
        attempt: call.attempt + 1,
        ...fields,
      }),
    );
  }

  const errorFields = (status: number | null, error: PlatformError) => {
    const shown = withoutSecretsIn(error, secrets);
    return {
      status,
      ...(shown.code ? { code: shown.code.slice(0, 60) } : {}),
      ...(shown.message ? { message: shown.message } : {}),
    };
  };

  function settle(
    call: PendingCall,
    outcome: Outcome,
    said?: { status: number | null; error?: PlatformError; reason?: GivenUp },
  ) {
    ledger.settle(call.id, outcome);
    heldSaid.delete(call.id);
    outcomes[outcome] += call.events;
    if (outcome === "delivered") counts.sent += call.events;
    else if (outcome === "unconfirmed") counts.unconfirmed += call.events;
    else counts.dropped += call.events;
    if (outcome === "delivered" || said?.reason === "room") return;
    const type = {
      refused: "delivery_refused",
      given_up: "delivery_given_up",
      unconfirmed: "delivery_unconfirmed",
    }[outcome];
    say(type, call, {
      ...errorFields(said?.status ?? null, said?.error ?? {}),
      ...(outcome === "given_up" ? { reason: "past the destination's age limit" } : {}),
    });
  }

  /** A call with no answer whose body went out. */
  function uncertain(call: PendingCall, { interrupted = false } = {}) {
    troubles.uncertain += call.events;
    // Out when the process stopped says nothing of the destination: it is not paused for it.
    if (options.deduplicates) return later(call, !interrupted);
    // GA4 keeps every copy: a lead is worth one late copy at most, other events none.
    if (call.lead && call.uncertain === 0) {
      counts.retried += call.events;
      ledger.retryLater(call.id, call.attempt + 1, now() + UNCERTAIN_RESEND_AFTER_MS, 1);
      return;
    }
    settle(call, "unconfirmed", { status: null, error: { message: "sent, and no answer came" } });
  }

  /** Sent again after backoff; the destination pauses too when it is the one failing. */
  function later(call: PendingCall, destinationFailed: boolean, status: number | null = null) {
    // One step of backoff per round: the calls that fail together count once.
    if (destinationFailed && (now() >= pausedUntil || pausedFor === "credentials")) {
      failures += 1;
      pausedUntil = now() + retryDelay(failures);
      pausedFor = "failing";
    }
    const attempt = call.attempt + 1;
    if (now() + retryDelay(attempt) - call.at > options.maxAgeMs) {
      return settle(call, "given_up", { status });
    }
    counts.retried += call.events;
    ledger.retryLater(call.id, attempt, now() + retryDelay(attempt), call.uncertain);
  }

  /**
   * Refused for the site's credentials: nothing is wrong with the call, so it is kept, said once,
   * and tried again after the longest pause (a new token comes with a restart).
   */
  function heldForCredentials(call: PendingCall, status: number | null, error: PlatformError) {
    troubles.credentialsRefused += call.events;
    if (!heldSaid.has(call.id)) {
      heldSaid.add(call.id);
      say("delivery_refused", call, {
        ...errorFields(status, error),
        held: "refused for the site's credentials: kept, and sent again once they are valid",
      });
    }
    if (pausedFor === "credentials" || now() >= pausedUntil) {
      pausedUntil = Math.max(pausedUntil, now() + MAX_PAUSE_MS);
      pausedFor = "credentials";
    }
    if (now() + MAX_PAUSE_MS - call.at > options.maxAgeMs) {
      return settle(call, "given_up", { status, error });
    }
    ledger.retryLater(call.id, call.attempt + 1, now() + MAX_PAUSE_MS, call.uncertain);
  }

  function verdictOf(call: PendingCall, status: number, answer: string) {
    const verdict = judge(status, answer);
    switch (verdict.kind) {
      case "delivered":
        failures = 0;
        // Taken: whatever was held for the credentials may go now.
        if (pausedFor === "credentials") pausedUntil = 0;
        return settle(call, "delivered");
      case "refused":
        return settle(call, "refused", { status, error: verdict });
      case "credentials":
        return heldForCredentials(call, status, verdict);
      case "retry":
        return later(call, true, status);
    }
  }

  async function attempt(call: PendingCall, abort: AbortController): Promise<void> {
    const sentAt = now();
    if (sentAt - call.at > options.maxAgeMs) return settle(call, "given_up", { status: null });
    const body = options.stamp ? options.stamp(call, sentAt) : call.body;
    if (body === null) return settle(call, "given_up", { status: null });
    let bodySent = false;
    let headers: Record<string, string> | undefined;
    try {
      headers = options.authorize ? await options.authorize() : undefined;
    } catch (error) {
      if (closed) return;
      // The token endpoint refused the site's own credentials (a revoked refresh token).
      if ((error as { credentials?: boolean })?.credentials) {
        return heldForCredentials(call, (error as { status?: number }).status ?? null, {
          message: "the token endpoint refused the site's credentials",
        });
      }
      return later(call, true);
    }
    try {
      if (closed) return;
      const url = options.address ? options.address(call.url) : new URL(call.url);
      let answer = "";
      const answered = await post(url, body, {
        timeoutMs: CALL_TIMEOUT_MS,
        signal: abort.signal,
        onBodySent: () => {
          bodySent = true;
          ledger.sending(call.id);
        },
        ...(headers ? { headers } : {}),
        onAnswer: (text: string) => {
          answer = text;
        },
      });
      if (closed) return;
      return verdictOf(call, answered, answer);
    } catch (error) {
      if (closed) return;
      const mayHaveArrived = bodySent || (error instanceof PostError && error.mayHaveArrived);
      if (mayHaveArrived) return uncertain(call);
      return later(call, true);
    }
  }

  /**
   * Past the ceiling, the oldest browser calls not out right now are given up, counted, and said
   * in one line when it starts and one when there is room again: a line per call would be a
   * line per page view for as long as the outage lasts.
   */
  function keepRoom() {
    let over = ledger.browserCallsOwed(destination) - maxBrowserCalls;
    if (over <= 0) {
      if (full) {
        log(
          JSON.stringify({
            type: "delivery_room",
            destination,
            state: "room again",
            given_up_events: full.events,
            ms: now() - full.since,
          }),
        );
        full = null;
      }
      return;
    }
    if (!full) {
      full = { since: now(), events: 0 };
      log(
        JSON.stringify({
          type: "delivery_room",
          destination,
          state: "full",
          browser_calls: maxBrowserCalls,
          reason: "the destination is not taking calls: the oldest browser events are given up",
        }),
      );
    }
    for (const call of ledger.pendingOf(destination)) {
      if (over <= 0) break;
      if (!call.browser || inFlight.has(call.id)) continue;
      settle(call, "given_up", { status: null, reason: "room" });
      full.events += call.events;
      over -= 1;
    }
  }

  /**
   * Starts what is due, oldest first (the ledger keeps calls in the order they were recorded),
   * and stops as soon as every slot is taken: a backlog of thousands costs a few steps per call,
   * not a pass over all of them.
   */
  function pump() {
    if (closed) return;
    const at = now();
    // No wait is ever longer than these: a clock set back must not hold calls for months.
    if (pausedUntil > at + MAX_PAUSE_MS) pausedUntil = at;
    const paused = !flushing && at < pausedUntil;
    if (paused && pausedFor === "failing") return schedule(pausedUntil);
    let next = Number.POSITIVE_INFINITY;
    for (const call of ledger.pendingOf(destination)) {
      // A slot frees up when a call ends, which pumps again.
      if (inFlight.size >= CONCURRENCY) return;
      if (inFlight.has(call.id)) continue;
      if (call.dueAt > at + UNCERTAIN_RESEND_AFTER_MS) call.dueAt = at;
      if (paused && (call.attempt > 0 || call.interrupted)) {
        next = Math.min(next, Math.max(call.dueAt, pausedUntil));
        continue;
      }
      if (flushing ? !flushing.has(call.id) : call.dueAt > at) {
        next = Math.min(next, call.dueAt);
        continue;
      }
      if (call.interrupted) {
        // Out when the process stopped: treated as sent with no answer.
        call.interrupted = false;
        uncertain(call, { interrupted: true });
        // Sent again later, when the rule says so (the call is updated in place).
        if (ledger.isPending(call.id)) next = Math.min(next, call.dueAt);
        continue;
      }
      flushing?.delete(call.id);
      const abort = new AbortController();
      const promise = attempt(call, abort)
        .catch((error: unknown) => {
          // Never past here: a disk or a bug must not end the process over one call.
          log(
            JSON.stringify({
              type: "outbox_error",
              destination,
              error: String((error as Error)?.message ?? error).slice(0, 200),
            }),
          );
        })
        .finally(() => {
          inFlight.delete(call.id);
          pump();
        });
      inFlight.set(call.id, { promise, abort });
    }
    // While flushing, what is owed goes out once; the rest waits for the flush to end.
    if (flushing) return;
    if (Number.isFinite(next)) schedule(Math.max(next, pausedUntil));
  }

  function schedule(at: number) {
    if (wake && wake.at <= at) return;
    wake?.cancel();
    const timer = setTimer(
      () => {
        wake = null;
        pump();
      },
      Math.max(0, at - now()),
    );
    wake = { ...timer, at };
  }

  // Owed from before a restart: trimmed to the room there is, and sent from the start. A start
  // is a new chance (a new token comes with one): backoff starts over, but for GA4's late try of
  // a lead's call, which keeps its time.
  queueMicrotask(() => {
    keepRoom();
    for (const call of ledger.pendingOf(destination)) {
      if (options.deduplicates || call.uncertain === 0) call.dueAt = Math.min(call.dueAt, now());
    }
    pump();
  });

  return {
    sent(calls) {
      for (const call of calls) counts.recorded += call.events;
      if (calls.some((call) => call.browser)) keepRoom();
      pump();
    },

    async flush(deadlineMs) {
      if (closed) return;
      // GA4's late try of a lead's call with no answer keeps its time: spent now, inside the
      // outage that took the first answer, it would be lost with it.
      const due = ledger
        .pendingCalls(destination)
        .filter((call) => options.deduplicates || call.uncertain === 0);
      flushing = new Set(due.map((call) => call.id));
      pausedUntil = 0;
      pump();
      let timer: { cancel: () => void } | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimer(resolve, deadlineMs);
      });
      const drained = (async () => {
        while (inFlight.size > 0) {
          await Promise.race([...inFlight.values()].map((flight) => flight.promise));
        }
      })();
      await Promise.race([drained, deadline]);
      timer?.cancel();
      flushing = null;
      pump();
    },

    close() {
      if (closed) return;
      closed = true;
      wake?.cancel();
      for (const { abort } of inFlight.values()) abort.abort();
    },

    stats() {
      const owed = ledger.pendingSummary(destination);
      return {
        ...counts,
        queued: owed.events,
        oldest_ms: owed.oldestAt === null ? 0 : Math.max(0, now() - owed.oldestAt),
      };
    },
    outcomes: () => ({ ...outcomes }),
    troubles: () => ({ ...troubles }),
  };
}
