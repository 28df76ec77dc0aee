/**
 * One destination's queue (GA4's, Meta's): recording never waits for it. Calls wait in a queue
 * bounded in calls and in bytes (retries waiting for their backoff included), go out four at a
 * time with a 2 s timeout, and are retried with the product's backoff (docs/product.md) only
 * when they certainly did not arrive: refused or reset before the body was sent, 429 or 5xx.
 * A call that timed out after its body was sent may have been taken: it is sent again only to
 * a destination that drops repeats itself (Meta, by event_id); GA4 does not, so there it is
 * counted as `unconfirmed` (docs/decisions/008-delivery-without-duplicates.md). Every event
 * recorded ends up sent, dropped or unconfirmed; on shutdown the queue gets a deadline.
 */

import { MAX_RETRIES, retryDelay } from "~/analytics/backoff";
import { PostError, postJson } from "~/analytics/http-post.server";

export type Delivery = {
  url: URL;
  /** The request body, serialised once: what memory the queue holds is what it will send. */
  body: string;
  /** How many events it carries, for the counters. */
  events: number;
  /**
   * The body as it is sent at `sentAt` (ms), for a destination that needs to be told how late it
   * is (GA4's timestamp_micros); null when it is too late to send at all (counted as dropped).
   */
  stamp?: (body: string, sentAt: number) => string | null;
};

/** Counted in events. recorded = sent + dropped + unconfirmed + queued, at every moment. */
export type OutboxStats = {
  recorded: number;
  sent: number;
  retried: number;
  dropped: number;
  unconfirmed: number;
  /** Not settled yet: in line, waiting for a retry, or out. */
  queued: number;
};

export type Outbox = {
  send: (delivery: Delivery) => void;
  /**
   * Sends what is queued now (retries waiting for their backoff too, once) and what is recorded
   * meanwhile, without retrying failures, waiting at most `deadlineMs`. If that runs out, the
   * outbox closes: calls still out are abandoned and counted as dropped (or unconfirmed, when
   * their body was sent).
   */
  flush: (deadlineMs: number) => Promise<void>;
  /** Closes at once: what is queued is counted as dropped, and so is anything later. */
  close: () => void;
  stats: () => OutboxStats;
};

export type Post = (
  url: URL,
  body: string,
  timeoutMs: number,
  signal?: AbortSignal,
) => Promise<number>;

type Call = Delivery & {
  attempt: number;
  /** Given up at a shutdown deadline while still out. */
  abandoned: boolean;
};

export const CALL_TIMEOUT_MS = 2000;
const MAX_QUEUED_CALLS = 2000;
/** 4 MB holds about 10,000 leads or 300 full browser batches. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
const CONCURRENCY = 4;

export function createOutbox(options: {
  /** Whether the destination drops a repeated event itself, so a call may be sent twice. */
  deduplicates: boolean;
  /** Resolves with the status code; rejects on network errors, timeouts and `signal`. */
  post?: Post;
  now?: () => number;
}): Outbox {
  const post = options.post ?? postJson;
  const now = options.now ?? (() => Date.now());
  const stats: OutboxStats = {
    recorded: 0,
    sent: 0,
    retried: 0,
    dropped: 0,
    unconfirmed: 0,
    queued: 0,
  };
  const queue: Call[] = [];
  const waiting = new Map<NodeJS.Timeout, Call>();
  const inFlight = new Map<Promise<void>, { call: Call; abort: AbortController }>();
  /** Size of what is held in the queue, waiting for a retry, or out (JSON characters). */
  let heldBytes = 0;
  /** Flushing: failures are dropped, not retried. */
  let closing = false;
  /** Closed: nothing more is sent. */
  let closed = false;

  function settle(call: Call, outcome: "sent" | "dropped" | "unconfirmed") {
    stats[outcome] += call.events;
    heldBytes -= call.body.length;
  }

  async function attempt(call: Call, abort: AbortController): Promise<void> {
    // An answer that is not 2xx, or no answer at all; and whether the other side may have it.
    let status: number | null = null;
    let mayHaveArrived = false;
    const body = call.stamp ? call.stamp(call.body, now()) : call.body;
    if (body === null) return settle(call, "dropped");
    try {
      status = await post(call.url, body, CALL_TIMEOUT_MS, abort.signal);
      if (call.abandoned) return;
      if (status >= 200 && status < 300) return settle(call, "sent");
    } catch (error) {
      if (call.abandoned) return;
      mayHaveArrived = !(error instanceof PostError) || error.mayHaveArrived;
    }
    // Sent again: a 429 or 5xx, what certainly did not arrive, or anything to a destination
    // that drops repeats itself. Otherwise, or out of tries, it is settled as it stands.
    const retryable =
      status === null ? !mayHaveArrived || options.deduplicates : status >= 500 || status === 429;
    if (!retryable || closing || call.attempt >= MAX_RETRIES)
      return settle(call, mayHaveArrived ? "unconfirmed" : "dropped");
    call.attempt += 1;
    stats.retried += 1;
    const timer = setTimeout(() => {
      waiting.delete(timer);
      requeue(call);
    }, retryDelay(call.attempt));
    timer.unref();
    waiting.set(timer, call);
  }

  function pump() {
    while (!closed && inFlight.size < CONCURRENCY && queue.length > 0) {
      const call = queue.shift() as Call;
      const abort = new AbortController();
      const task: Promise<void> = attempt(call, abort).finally(() => {
        inFlight.delete(task);
        pump();
      });
      inFlight.set(task, { call, abort });
    }
  }

  /** A retry whose backoff is over goes back in line, if there is room. */
  function requeue(call: Call) {
    if (closed || queue.length >= MAX_QUEUED_CALLS) return settle(call, "dropped");
    queue.push(call);
    pump();
  }

  function close() {
    if (closed) return;
    closed = true;
    closing = true;
    for (const [timer, call] of waiting) {
      clearTimeout(timer);
      settle(call, "dropped");
    }
    waiting.clear();
    for (const call of queue.splice(0)) settle(call, "dropped");
    for (const { call, abort } of inFlight.values()) {
      call.abandoned = true;
      // Out already: it may arrive, or may have; the destination knows, not us.
      settle(call, "unconfirmed");
      abort.abort();
    }
  }

  return {
    send(delivery) {
      stats.recorded += delivery.events;
      const full =
        queue.length + waiting.size >= MAX_QUEUED_CALLS ||
        heldBytes + delivery.body.length > MAX_QUEUED_BYTES;
      if (closed || full) {
        stats.dropped += delivery.events;
        return;
      }
      heldBytes += delivery.body.length;
      queue.push({ ...delivery, attempt: 0, abandoned: false });
      pump();
    },

    async flush(deadlineMs) {
      if (closed) return;
      closing = true;
      // Retries still waiting go out now, once, instead of after their backoff.
      for (const [timer, call] of waiting) {
        clearTimeout(timer);
        queue.push(call);
      }
      waiting.clear();
      pump();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<"deadline">((resolve) => {
        timer = setTimeout(() => resolve("deadline"), deadlineMs);
        timer.unref();
      });
      const drained = (async () => {
        while (queue.length > 0 || inFlight.size > 0) {
          pump();
          await Promise.race(inFlight.keys());
        }
        return "drained" as const;
      })();
      const outcome = await Promise.race([drained, deadline]);
      clearTimeout(timer);
      if (outcome === "deadline") {
        close();
        // Abandoned calls settle at once once aborted; let them, so nothing is left running.
        await Promise.allSettled(inFlight.keys());
      }
    },

    close,

    stats: () => ({
      ...stats,
      queued: stats.recorded - stats.sent - stats.dropped - stats.unconfirmed,
    }),
  };
}
