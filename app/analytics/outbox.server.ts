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
import { attemptCall } from "~/analytics/outbox-attempt.server";
import { callFates } from "~/analytics/outbox-fates.server";
import { sendingLoop } from "~/analytics/outbox-loop.server";
import { destinationPause } from "~/analytics/outbox-pause.server";
import { type Outcomes, outboxReport, type Troubles } from "~/analytics/outbox-report.server";
import { roomKeeper } from "~/analytics/outbox-room.server";
import { judgeStatus, type Verdict } from "~/analytics/verdict.server";
import type { DestinationName, Ledger, NewCall, PendingCall } from "~/leads/ledger/ledger.server";
import { type Post, postJson } from "~/platform/http-post.server";

export { CALL_TIMEOUT_MS } from "~/analytics/outbox-attempt.server";
export { UNCERTAIN_RESEND_AFTER_MS } from "~/analytics/outbox-fates.server";
export type { Outcomes, Troubles } from "~/analytics/outbox-report.server";

export type { Post };

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
  /** What follows a call's delivery, once the ledger has it settled (a reply's "link sent"). */
  delivered?: (call: PendingCall) => void;
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

/**
 * The pieces, each handed what it needs: what is counted and said (outbox-report), when the
 * destination is left alone (outbox-pause), what becomes of a call after a try (outbox-fates),
 * one try (outbox-attempt), the browser events' ceiling (outbox-room), and how calls are sent
 * (outbox-loop).
 */
export function createOutbox(options: OutboxOptions): Outbox {
  const { ledger, destination, deduplicates, maxAgeMs } = options;
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? realTimer;
  const log = options.log ?? (() => {});
  const report = outboxReport({
    destination,
    ledger,
    log,
    secrets: options.secrets ?? [],
    delivered: options.delivered,
  });
  const pause = destinationPause(now);
  const judge = options.judge ?? judgeStatus;
  const fates = callFates({ ledger, now, pause, report, deduplicates, maxAgeMs, judge });
  /**
   * GA4's late try of a lead's call with no answer keeps its time: spent by a flush, inside the
   * outage that took the first answer, it would be lost with it; a restart keeps it too.
   */
  const dueNow = (call: PendingCall) => deduplicates || call.uncertain === 0;
  const loop = sendingLoop({
    destination,
    ledger,
    now,
    setTimer,
    log,
    pause,
    attempt: (call, abort) =>
      attemptCall(call, abort, {
        ledger,
        now,
        maxAgeMs,
        stamp: options.stamp,
        address: options.address,
        authorize: options.authorize,
        post: options.post ?? postJson,
        closed: () => loop.closed(),
        fates,
        settle: report.settle,
      }),
    uncertain: fates.uncertain,
    spentByFlush: dueNow,
  });
  const keepRoom = roomKeeper({
    destination,
    ledger,
    maxBrowserCalls: options.maxBrowserCalls ?? MAX_BROWSER_CALLS,
    log,
    now,
    settle: report.settle,
    isOut: loop.isOut,
  });

  // Owed from before a restart: trimmed to the room there is, and sent from the start. A start
  // is a new chance (a new token comes with one): backoff starts over, but for GA4's late try of
  // a lead's call, which keeps its time.
  queueMicrotask(() => {
    keepRoom();
    for (const call of ledger.pendingOf(destination)) {
      if (dueNow(call)) call.dueAt = Math.min(call.dueAt, now());
    }
    loop.pump();
  });

  return {
    sent(calls) {
      report.recorded(calls);
      if (calls.some((call) => call.browser)) keepRoom();
      loop.pump();
    },
    flush: loop.flush,
    close: loop.close,
    stats() {
      const owed = ledger.pendingSummary(destination);
      return {
        ...report.counts,
        queued: owed.events,
        oldest_ms: owed.oldestAt === null ? 0 : Math.max(0, now() - owed.oldestAt),
      };
    },
    outcomes: () => ({ ...report.outcomes }),
    troubles: () => ({ ...report.troubles }),
  };
}
