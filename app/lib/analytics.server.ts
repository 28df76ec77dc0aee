/**
 * Where events leave the site: the GA4 Measurement Protocol when it is configured, else one JSON
 * line per event on stdout. Recording never waits for GA4: events go into a bounded queue that
 * is drained in the background, with a 2 s timeout per call and the spec's retry backoff.
 */
import type { EventParams } from "~/lib/analytics-events";
import { MAX_RETRIES, retryDelay } from "~/lib/backoff";
import type { Config } from "~/lib/config.server";
import { postJson } from "~/lib/http-post.server";
import type { Visitor } from "~/lib/visitor.server";

export type OutboundEvent = { name: string; params: EventParams };

export type SinkStats = {
  recorded: number;
  sent: number;
  retried: number;
  dropped: number;
  queued: number;
};

type Batch = {
  clientId: string;
  events: OutboundEvent[];
  timestampMicros: number;
  attempt: number;
};

export type Sink = {
  record: (visitor: Visitor, events: OutboundEvent[]) => void;
  /** Sends what is queued, waiting at most `deadlineMs`; what is left then is dropped. */
  flush: (deadlineMs: number) => Promise<void>;
  stats: () => SinkStats;
};

const BATCH_LIMIT = 25;
const CALL_TIMEOUT_MS = 2000;
const MAX_QUEUED_BATCHES = 2000;
const CONCURRENCY = 4;

type SinkOptions = {
  ga: Config["ga"];
  endpoint: string;
  /** Resolves with the status code; rejects on network errors and timeouts. */
  post?: (url: URL, body: string, timeoutMs: number) => Promise<number>;
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
  const inFlight = new Set<Promise<void>>();
  let closing = false;

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

  function drop(batch: Batch) {
    stats.dropped += batch.events.length;
  }

  async function send(batch: Batch): Promise<void> {
    const ga = options.ga;
    if (!ga) return;
    const url = new URL(options.endpoint);
    url.searchParams.set("measurement_id", ga.measurementId);
    url.searchParams.set("api_secret", ga.apiSecret);
    let retry = false;
    try {
      const body = JSON.stringify({
        client_id: batch.clientId,
        timestamp_micros: batch.timestampMicros,
        events: batch.events,
      });
      const status = await post(url, body, CALL_TIMEOUT_MS);
      if (status >= 200 && status < 300) {
        stats.sent += batch.events.length;
        return;
      }
      retry = status >= 500 || status === 429;
    } catch {
      retry = true;
    }
    if (!retry || closing || batch.attempt >= MAX_RETRIES) return drop(batch);
    batch.attempt += 1;
    stats.retried += 1;
    const timer = setTimeout(() => {
      waiting.delete(timer);
      enqueue(batch);
    }, retryDelay(batch.attempt));
    timer.unref();
    waiting.set(timer, batch);
  }

  function pump() {
    while (inFlight.size < CONCURRENCY && queue.length > 0) {
      const batch = queue.shift() as Batch;
      stats.queued = queue.length;
      const task = send(batch).finally(() => {
        inFlight.delete(task);
        pump();
      });
      inFlight.add(task);
    }
  }

  function enqueue(batch: Batch) {
    if (queue.length >= MAX_QUEUED_BATCHES) return drop(batch);
    queue.push(batch);
    stats.queued = queue.length;
    pump();
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
      if (closing) {
        stats.dropped += decorated.length;
        return;
      }
      for (let start = 0; start < decorated.length; start += BATCH_LIMIT) {
        enqueue({
          clientId: visitor.clientId,
          events: decorated.slice(start, start + BATCH_LIMIT),
          timestampMicros: now() * 1000,
          attempt: 0,
        });
      }
    },

    async flush(deadlineMs) {
      closing = true;
      // Retries still waiting go out now, once, instead of after their backoff.
      for (const [timer, batch] of waiting) {
        clearTimeout(timer);
        queue.push(batch);
      }
      waiting.clear();
      const deadline = new Promise<void>((resolve) => setTimeout(resolve, deadlineMs).unref());
      const drained = (async () => {
        while (queue.length > 0 || inFlight.size > 0) {
          pump();
          await Promise.race([...inFlight]);
        }
      })();
      await Promise.race([drained, deadline]);
      for (const batch of queue.splice(0)) drop(batch);
      stats.queued = 0;
    },

    stats: () => ({ ...stats }),
  };
}
