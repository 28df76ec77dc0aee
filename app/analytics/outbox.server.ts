/**
 * One destination's outbox (GA4's, Meta's, an ad network's), taking its calls from the lead ledger
 * (leads/ledger/ledger.server.ts), so that an outage, a restart or a crash loses nothing
 * (docs/decisions/015-lead-ledger.md). Recording never waits for it.
 *
 * A call leaves the outbox only when it is confirmed (2xx) or refused for good (a 4xx other than
 * 408 and 429). Anything else is sent again, oldest first, with backoff, for as long as the
 * destination still takes the event (GA4 72 hours, Meta 7 days, …); then it is given up. A call
 * whose body went out without an answer may have arrived: a destination that drops repeats
 * (Meta, TikTok and Snap by event_id, Google Ads by order id) is sent it again; GA4 does not, so a lead's call gets one more try after
 * a long pause and any other call is counted as unconfirmed (decision 008, amended by 015).
 */
import { retryDelay } from "~/analytics/backoff";
import { PostError, postJson } from "~/analytics/http-post.server";
import type {
  DestinationName,
  Ledger,
  NewCall,
  Outcome,
  PendingCall,
} from "~/leads/ledger/ledger.server";

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

export type Outbox = {
  /** Notes calls the ledger has just recorded, and sends what is due. */
  sent: (calls: PendingCall[]) => void;
  /**
   * Sends what is owed now, once, without waiting for backoff, and waits at most `deadlineMs`
   * for the answers. What is left stays in the ledger for the next start.
   */
  flush: (deadlineMs: number) => Promise<void>;
  /** Stops sending; what is out is abandoned (the ledger knows it may have arrived). */
  close: () => void;
  stats: () => OutboxStats;
  outcomes: () => Outcomes;
};

export const CALL_TIMEOUT_MS = 2000;
const CONCURRENCY = 4;
/** The longest a destination is left alone after failing: the backoff's ceiling. */
const MAX_PAUSE_MS = 30_000;
/** How long GA4 is given before a lead's call with no answer is sent once more. */
export const UNCERTAIN_RESEND_AFTER_MS = 10 * 60_000;

export type OutboxOptions = {
  destination: DestinationName;
  ledger: Ledger;
  /** Whether the destination drops a repeated event itself, so a call may be sent twice. */
  deduplicates: boolean;
  /** How far back the destination still takes an event (ms). */
  maxAgeMs: number;
  /** The body as it is sent at `sentAt` (GA4 dates a late event); null: too late to send. */
  stamp?: (call: NewCall, sentAt: number) => string | null;
  /**
   * The headers a call is sent with (a token, fetched or cached); a rejection is the
   * destination failing before anything was sent.
   */
  authorize?: () => Promise<Record<string, string>>;
  /**
   * What an answer means, as a status: TikTok and Google Ads answer 200 for calls they refused,
   * and say so in the body.
   */
  judge?: (status: number, answer: string) => number;
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

const isPermanent = (status: number) =>
  status >= 400 && status < 500 && status !== 408 && status !== 429;

export function createOutbox(options: OutboxOptions): Outbox {
  const { ledger, destination } = options;
  const post = options.post ?? postJson;
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? realTimer;
  const counts = { recorded: 0, sent: 0, retried: 0, dropped: 0, unconfirmed: 0 };
  const outcomes: Outcomes = { delivered: 0, refused: 0, unconfirmed: 0, given_up: 0 };
  const inFlight = new Map<string, { promise: Promise<void>; abort: AbortController }>();
  /** Consecutive failures of the destination itself: it is left alone while it recovers. */
  let failures = 0;
  let pausedUntil = 0;
  let wake: { cancel: () => void; at: number } | null = null;
  let closed = false;
  /** Flushing: everything owed is due now, once. */
  let flushing: Set<string> | null = null;

  function settle(call: PendingCall, outcome: Outcome) {
    ledger.settle(call.id, outcome);
    outcomes[outcome] += call.events;
    if (outcome === "delivered") counts.sent += call.events;
    else if (outcome === "unconfirmed") counts.unconfirmed += call.events;
    else counts.dropped += call.events;
  }

  /** A call with no answer whose body went out. */
  function uncertain(call: PendingCall, { interrupted = false } = {}) {
    // Out when the process stopped says nothing of the destination: it is not paused for it.
    if (options.deduplicates) return later(call, !interrupted);
    // GA4 keeps every copy: a lead is worth one late copy at most, other events none.
    if (call.lead && call.uncertain === 0) {
      counts.retried += call.events;
      ledger.retryLater(call.id, call.attempt + 1, now() + UNCERTAIN_RESEND_AFTER_MS, 1);
      return;
    }
    settle(call, "unconfirmed");
  }

  /** Sent again after backoff; the destination pauses too when it is the one failing. */
  function later(call: PendingCall, destinationFailed: boolean) {
    // One step of backoff per round: the calls that fail together count once.
    if (destinationFailed && now() >= pausedUntil) {
      failures += 1;
      pausedUntil = now() + retryDelay(failures);
    }
    const attempt = call.attempt + 1;
    if (now() + retryDelay(attempt) - call.at > options.maxAgeMs) return settle(call, "given_up");
    counts.retried += call.events;
    ledger.retryLater(call.id, attempt, now() + retryDelay(attempt), call.uncertain);
  }

  async function attempt(call: PendingCall, abort: AbortController): Promise<void> {
    const sentAt = now();
    if (sentAt - call.at > options.maxAgeMs) return settle(call, "given_up");
    const body = options.stamp ? options.stamp(call, sentAt) : call.body;
    if (body === null) return settle(call, "given_up");
    let bodySent = false;
    try {
      const headers = options.authorize ? await options.authorize() : undefined;
      if (closed) return;
      let answer = "";
      const answered = await post(new URL(call.url), body, {
        timeoutMs: CALL_TIMEOUT_MS,
        signal: abort.signal,
        onBodySent: () => {
          bodySent = true;
          ledger.sending(call.id);
        },
        ...(headers ? { headers } : {}),
        ...(options.judge ? { onAnswer: (text: string) => (answer = text) } : {}),
      });
      if (closed) return;
      const status = options.judge ? options.judge(answered, answer) : answered;
      if (status >= 200 && status < 300) {
        failures = 0;
        return settle(call, "delivered");
      }
      if (isPermanent(status)) return settle(call, "refused");
      return later(call, true);
    } catch (error) {
      if (closed) return;
      const mayHaveArrived = bodySent || (error instanceof PostError && error.mayHaveArrived);
      if (mayHaveArrived) return uncertain(call);
      return later(call, true);
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
    if (!flushing && at < pausedUntil) return schedule(pausedUntil);
    let next = Number.POSITIVE_INFINITY;
    for (const call of ledger.pendingOf(destination)) {
      // A slot frees up when a call ends, which pumps again.
      if (inFlight.size >= CONCURRENCY) return;
      if (inFlight.has(call.id)) continue;
      if (call.dueAt > at + UNCERTAIN_RESEND_AFTER_MS) call.dueAt = at;
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
      const promise = attempt(call, abort).finally(() => {
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

  // Owed from before a restart: sent from the start.
  queueMicrotask(pump);

  return {
    sent(calls) {
      for (const call of calls) counts.recorded += call.events;
      pump();
    },

    async flush(deadlineMs) {
      if (closed) return;
      flushing = new Set(ledger.pendingCalls(destination).map((call) => call.id));
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
  };
}
