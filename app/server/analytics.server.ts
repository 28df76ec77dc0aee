/**
 * Where events leave the site: the GA4 Measurement Protocol when it is configured, else one JSON
 * line per event on stdout. Recording never waits for GA4: events go into a queue bounded in
 * batches and in size (retries waiting for their backoff included) that is drained in the
 * background, with a 2 s timeout per call and the product's retry backoff (docs/product.md). Every event recorded is
 * in the end counted as sent or as dropped; on shutdown the queue gets a deadline.
 */

import type { Config } from "~/server/config.server";
import { postJson } from "~/server/http-post.server";
import type { Visitor } from "~/server/visitor.server";
import type { EventParams } from "~/shared/analytics-events";
import { MAX_RETRIES, retryDelay } from "~/shared/backoff";

export type OutboundEvent = { name: string; params: EventParams };

export type SinkStats = {
  recorded: number;
  sent: number;
  retried: number;
  dropped: number;
  queued: number;
};

type Batch = {
  /** The request body, serialised once: what memory the queue holds is what it will send. */
  body: string;
  events: number;
  attempt: number;
  /** Counted as dropped at a shutdown deadline while its call was still out. */
  abandoned: boolean;
};

export type Sink = {
  record: (visitor: Visitor, events: OutboundEvent[]) => void;
  /**
   * Sends what is queued now (retries waiting for their backoff too, once) and what is recorded
   * meanwhile, without retrying failures, waiting at most `deadlineMs`. If that runs out, the
   * sink closes: calls still out are abandoned and, like the queue, counted as dropped.
   */
  flush: (deadlineMs: number) => Promise<void>;
  /** Closes at once: what is queued or out is counted as dropped, and so is anything later. */
  close: () => void;
  stats: () => SinkStats;
};

const BATCH_LIMIT = 25;
const CALL_TIMEOUT_MS = 2000;
const MAX_QUEUED_BATCHES = 2000;
/**
 * Batches are counted and weighed: 2000 full 16 KB batches would be 32 MB of JSON (and, kept as
 * objects, more than 40 MB of heap). 4 MB holds about 10,000 leads or 300 full browser batches.
 */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
const CONCURRENCY = 4;

type SinkOptions = {
  ga: Config["ga"];
  endpoint: string;
  /** Resolves with the status code; rejects on network errors, timeouts and `signal`. */
  post?: (url: URL, body: string, timeoutMs: number, signal?: AbortSignal) => Promise<number>;
  writeLine?: (line: string) => void;
  now?: () => number;
};

export function createSink(options: SinkOptions): Sink {
  const post = options.post ?? postJson;
  const writeLine = options.writeLine ?? ((line: string) => process.stdout.write(`${line}\n`));
  const now = options.now ?? Date.now;
  const stats: SinkStats = { recorded: 0, sent: 0, retried: 0, dropped: 0, queued: 0 };
  const queue: Batch[] = [];
  const waiting = new Map<NodeJS.Timeout, Batch>();
  const inFlight = new Map<Promise<void>, { batch: Batch; abort: AbortController }>();
  /** Size of what is held in the queue, waiting for a retry, or out (JSON characters). */
  let heldBytes = 0;
  /** Flushing: failures are dropped, not retried. */
  let closing = false;
  /** Closed: nothing more is sent. */
  let closed = false;

  function decorate(visitor: Visitor, event: OutboundEvent): OutboundEvent {
    return {
      name: event.name,
      params: {
        ...event.params,
        session_id: visitor.sessionId,
        engagement_time_msec: event.params.engagement_time_msec ?? 1,
      },
    };
  }

  function release(batch: Batch) {
    heldBytes -= batch.body.length;
  }

  function drop(batch: Batch) {
    stats.dropped += batch.events;
    release(batch);
  }

  function url(): URL | null {
    const ga = options.ga;
    if (!ga) return null;
    const target = new URL(options.endpoint);
    target.searchParams.set("measurement_id", ga.measurementId);
    target.searchParams.set("api_secret", ga.apiSecret);
    return target;
  }

  async function send(batch: Batch, abort: AbortController): Promise<void> {
    const target = url();
    if (!target) return drop(batch);
    let retry = false;
    try {
      const status = await post(target, batch.body, CALL_TIMEOUT_MS, abort.signal);
      if (batch.abandoned) return;
      if (status >= 200 && status < 300) {
        stats.sent += batch.events;
        release(batch);
        return;
      }
      retry = status >= 500 || status === 429;
    } catch {
      if (batch.abandoned) return;
      retry = true;
    }
    if (!retry || closing || batch.attempt >= MAX_RETRIES) return drop(batch);
    batch.attempt += 1;
    stats.retried += 1;
    const timer = setTimeout(() => {
      waiting.delete(timer);
      requeue(batch);
    }, retryDelay(batch.attempt));
    timer.unref();
    waiting.set(timer, batch);
  }

  function pump() {
    while (!closed && inFlight.size < CONCURRENCY && queue.length > 0) {
      const batch = queue.shift() as Batch;
      stats.queued = queue.length;
      const abort = new AbortController();
      const task: Promise<void> = send(batch, abort).finally(() => {
        inFlight.delete(task);
        pump();
      });
      inFlight.set(task, { batch, abort });
    }
  }

  /** A retry whose backoff is over goes back in line, if there is room. */
  function requeue(batch: Batch) {
    if (closed || queue.length >= MAX_QUEUED_BATCHES) return drop(batch);
    queue.push(batch);
    stats.queued = queue.length;
    pump();
  }

  function accept(batch: Batch) {
    const full =
      queue.length + waiting.size >= MAX_QUEUED_BATCHES ||
      heldBytes + batch.body.length > MAX_QUEUED_BYTES;
    if (closed || full) {
      stats.dropped += batch.events;
      return;
    }
    heldBytes += batch.body.length;
    queue.push(batch);
    stats.queued = queue.length;
    pump();
  }

  function close() {
    if (closed) return;
    closed = true;
    closing = true;
    for (const [timer, batch] of waiting) {
      clearTimeout(timer);
      drop(batch);
    }
    waiting.clear();
    for (const batch of queue.splice(0)) drop(batch);
    stats.queued = 0;
    for (const { batch, abort } of inFlight.values()) {
      batch.abandoned = true;
      drop(batch);
      abort.abort();
    }
  }

  return {
    record(visitor, events) {
      stats.recorded += events.length;
      const decorated = events.map((event) => decorate(visitor, event));
      if (!options.ga) {
        for (const event of decorated) {
          writeLine(
            JSON.stringify({
              type: "analytics",
              name: event.name,
              params: event.params,
              client_id: visitor.clientId,
            }),
          );
        }
        stats.sent += decorated.length;
        return;
      }
      for (let start = 0; start < decorated.length; start += BATCH_LIMIT) {
        const slice = decorated.slice(start, start + BATCH_LIMIT);
        accept({
          body: JSON.stringify({
            client_id: visitor.clientId,
            timestamp_micros: now() * 1000,
            events: slice,
          }),
          events: slice.length,
          attempt: 0,
          abandoned: false,
        });
      }
    },

    async flush(deadlineMs) {
      if (closed) return;
      closing = true;
      // Retries still waiting go out now, once, instead of after their backoff.
      for (const [timer, batch] of waiting) {
        clearTimeout(timer);
        queue.push(batch);
      }
      waiting.clear();
      stats.queued = queue.length;
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

    stats: () => ({ ...stats }),
  };
}

/**
 * A line for the operator, `{"type":"analytics_stats",…}` with the counters since start, when
 * they changed since the last one: call it on a timer.
 */
export function statsReporter(
  counters: () => Record<string, number>,
  write: (line: string) => void,
): () => void {
  let last = "";
  return () => {
    const current = JSON.stringify(counters());
    if (current === last) return;
    last = current;
    write(JSON.stringify({ type: "analytics_stats", ...counters() }));
  };
}
