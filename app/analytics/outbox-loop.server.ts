/**
 * How an outbox sends (outbox.server.ts): at most a few calls out at once, oldest first, a timer
 * for the next one due, a flush that sends everything owed once, and a close. Its own piece
 * because it holds what is out right now, which nothing else changes.
 */

import { UNCERTAIN_RESEND_AFTER_MS } from "~/analytics/outbox-fates.server";
import type { DestinationPause } from "~/analytics/outbox-pause.server";
import type { DestinationName, Ledger, PendingCall } from "~/leads/ledger/ledger.server";

const CONCURRENCY = 4;

type Timer = (run: () => void, ms: number) => { cancel: () => void };

export type SendingLoop = ReturnType<typeof sendingLoop>;

export type SendingLoopOptions = {
  destination: DestinationName;
  ledger: Ledger;
  now: () => number;
  setTimer: Timer;
  log: (line: string) => void;
  pause: DestinationPause;
  attempt: (call: PendingCall, abort: AbortController) => Promise<void>;
  /** A call that was out when the process stopped: treated as sent with no answer. */
  uncertain: (call: PendingCall, how: { interrupted: boolean }) => void;
  /** Whether a flush sends the call now, or leaves it its own time. */
  spentByFlush: (call: PendingCall) => boolean;
};

type Flight = { promise: Promise<void>; abort: AbortController };

/** The line for a try that threw: its message bounded, never a stack. */
function outboxError(destination: DestinationName, error: unknown): string {
  return JSON.stringify({
    type: "outbox_error",
    destination,
    error: String((error as Error)?.message ?? error).slice(0, 200),
  });
}

/**
 * Settles once every call out now has its answer, or at `deadlineMs`, whichever is first; the
 * deadline's timer is cancelled by the caller once it has waited.
 */
function answersOrDeadline(inFlight: Map<string, Flight>, deadlineMs: number, setTimer: Timer) {
  let timer: { cancel: () => void } | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimer(resolve, deadlineMs);
  });
  const drained = (async () => {
    while (inFlight.size > 0) {
      await Promise.race([...inFlight.values()].map((flight) => flight.promise));
    }
  })();
  return { settled: Promise.race([drained, deadline]), cancel: () => timer?.cancel() };
}

export function sendingLoop(options: SendingLoopOptions) {
  const { destination, ledger, now, setTimer, log, pause, attempt, uncertain } = options;
  const inFlight = new Map<string, Flight>();
  let wake: { cancel: () => void; at: number } | null = null;
  let closed = false;
  /** Flushing: everything owed is due now, once. */
  let flushing: Set<string> | null = null;

  /** Sends one call, and pumps again as its slot frees up. */
  function start(call: PendingCall) {
    const abort = new AbortController();
    const promise = attempt(call, abort)
      .catch((error: unknown) => {
        // Never past here: a disk or a bug must not end the process over one call.
        log(outboxError(destination, error));
      })
      .finally(() => {
        inFlight.delete(call.id);
        pump();
      });
    inFlight.set(call.id, { promise, abort });
  }

  /**
   * Starts what is due, oldest first (the ledger keeps calls in the order they were recorded),
   * and stops as soon as every slot is taken: a backlog of thousands costs a few steps per call,
   * not a pass over all of them.
   */
  function pump() {
    if (closed) return;
    const at = now();
    pause.boundFrom(at);
    const paused = !flushing && at < pause.until();
    if (paused && pause.holdsEverything()) return schedule(pause.until());
    let next = Number.POSITIVE_INFINITY;
    for (const call of ledger.pendingOf(destination)) {
      // A slot frees up when a call ends, which pumps again.
      if (inFlight.size >= CONCURRENCY) return;
      if (inFlight.has(call.id)) continue;
      if (call.dueAt > at + UNCERTAIN_RESEND_AFTER_MS) call.dueAt = at;
      if (paused && (call.attempt > 0 || call.interrupted)) {
        next = Math.min(next, Math.max(call.dueAt, pause.until()));
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
      start(call);
    }
    // While flushing, what is owed goes out once; the rest waits for the flush to end.
    if (flushing) return;
    if (Number.isFinite(next)) schedule(Math.max(next, pause.until()));
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

  return {
    pump,
    isOut: (id: string) => inFlight.has(id),
    closed: () => closed,

    async flush(deadlineMs: number) {
      if (closed) return;
      const due = ledger.pendingCalls(destination).filter(options.spentByFlush);
      flushing = new Set(due.map((call) => call.id));
      pause.lift();
      pump();
      const answers = answersOrDeadline(inFlight, deadlineMs, setTimer);
      await answers.settled;
      answers.cancel();
      flushing = null;
      pump();
    },

    close() {
      if (closed) return;
      closed = true;
      wake?.cancel();
      for (const { abort } of inFlight.values()) abort.abort();
    },
  };
}
