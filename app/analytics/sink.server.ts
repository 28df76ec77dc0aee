/**
 * Where events leave the site: the GA4 Measurement Protocol when it is configured, else one JSON
 * line per event on stdout; and, opted in, a Lead for each counted lead to Meta's Conversions
 * API. Each destination has its own outbox (app/analytics/outbox.server.ts): recording never waits,
 * and every event is in the end counted as sent, dropped or unconfirmed.
 */

import type { EventParams } from "~/analytics/events";
import { type MetaLead, metaLeadDelivery } from "~/analytics/meta-capi.server";
import {
  createOutbox,
  type Delivery,
  type OutboxStats,
  type Post,
} from "~/analytics/outbox.server";
import type { Visitor } from "~/leads/visitor.server";
import type { Config } from "~/platform/config.server";

export type OutboundEvent = { name: string; params: EventParams };

/** GA4's counters under their own names; Meta's, when it is configured, as meta_*. */
export type SinkStats = OutboxStats & Partial<Record<`meta_${keyof OutboxStats}`, number>>;

export type Recording = {
  /** The GA4 session: the browser's (its batch, or a lead link's `sid`), else the visitor's. */
  sessionId?: string;
  /** A counted lead: what Meta's Lead is made of. */
  lead?: MetaLead;
  /** When the events happened (ms), if not now: a replay of what was recorded earlier. */
  at?: number;
};

export type Sink = {
  record: (visitor: Visitor, events: OutboundEvent[], recording?: Recording) => void;
  /** Flushes every destination within `deadlineMs` (outbox.server.ts's flush). */
  flush: (deadlineMs: number) => Promise<void>;
  /** Closes at once: what is queued is counted as dropped, what is out as unconfirmed. */
  close: () => void;
  stats: () => SinkStats;
};

/**
 * A place events are sent: what to post for what was recorded (nothing, for what it does not
 * take), and whether it drops a repeated event itself, which makes sending one again safe.
 */
export type Destination = {
  deduplicates: boolean;
  deliveries: (visitor: Visitor, events: OutboundEvent[], recording: Recording) => Delivery[];
};

const GA4_BATCH_LIMIT = 25;

/**
 * Events sent this much later than they happened carry their own time (timestamp_micros): a
 * retry after backoff, a replay. Sooner, they are sent as they happen, and GA4 times them.
 */
export const BACKDATE_AFTER_MS = 2000;
/** GA4 takes timestamp_micros up to 72 hours back; older events are dropped, not misdated. */
export const MAX_BACKDATE_MS = 72 * 3600_000;

/**
 * The GA4 body to send at `sentAt` for events that happened at `at`: as it is, or with
 * `timestamp_micros` first when it is measurably late, as Google documents it ("only for events
 * that happened in the past"); null past GA4's 72 hours.
 */
export function ga4Stamp(at: number): (body: string, sentAt: number) => string | null {
  return (body, sentAt) => {
    const late = sentAt - at;
    if (late > MAX_BACKDATE_MS) return null;
    return late < BACKDATE_AFTER_MS ? body : `{"timestamp_micros":${at * 1000},${body.slice(1)}`;
  };
}

/**
 * GA4: each visitor's events under its client_id, 25 to a call. GA4 keeps every copy it is
 * given, so a call that may have arrived is never sent again.
 */
export function ga4Destination(
  ga: NonNullable<Config["ga"]>,
  endpoint: string,
  now: () => number,
): Destination {
  const url = new URL(endpoint);
  url.searchParams.set("measurement_id", ga.measurementId);
  url.searchParams.set("api_secret", ga.apiSecret);
  return {
    deduplicates: false,
    deliveries(visitor, events, recording) {
      const calls: Delivery[] = [];
      const stamp = ga4Stamp(recording.at ?? now());
      for (let start = 0; start < events.length; start += GA4_BATCH_LIMIT) {
        const slice = events.slice(start, start + GA4_BATCH_LIMIT);
        const body = JSON.stringify({ client_id: visitor.clientId, events: slice });
        calls.push({ url, body, events: slice.length, stamp });
      }
      return calls;
    },
  };
}

/** Meta: a Lead for a counted lead and nothing else. Its event_id makes a repeat harmless. */
export function metaDestination(meta: NonNullable<Config["meta"]>): Destination {
  return {
    deduplicates: true,
    deliveries: (_visitor, _events, { lead }) => (lead ? [metaLeadDelivery(meta, lead)] : []),
  };
}

type SinkOptions = {
  ga: Config["ga"];
  endpoint: string;
  meta?: Config["meta"];
  /** Resolves with the status code; rejects on network errors, timeouts and `signal`. */
  post?: Post;
  writeLine?: (line: string) => void;
  now?: () => number;
};

export function createSink(options: SinkOptions): Sink {
  const writeLine = options.writeLine ?? ((line: string) => process.stdout.write(`${line}\n`));
  const now = options.now ?? (() => Date.now());
  // Each destination with its own outbox, which retries as the destination allows.
  const withOutbox = (destination: Destination) => ({
    destination,
    outbox: createOutbox({ deduplicates: destination.deduplicates, post: options.post, now }),
  });
  const ga = options.ga ? withOutbox(ga4Destination(options.ga, options.endpoint, now)) : null;
  const meta = options.meta ? withOutbox(metaDestination(options.meta)) : null;
  // Without GA4 the lines on stdout are the record: written is sent.
  const logged = { recorded: 0, sent: 0 };

  function decorate(event: OutboundEvent, sessionId: string): OutboundEvent {
    return {
      name: event.name,
      params: {
        ...event.params,
        session_id: sessionId,
        // The server sees no page: 1 ms marks the visitor active without inventing engagement.
        engagement_time_msec: event.params.engagement_time_msec ?? 1,
      },
    };
  }

  return {
    record(visitor, events, recording = {}) {
      const sessionId = recording.sessionId ?? visitor.sessionId;
      const decorated = events.map((event) => decorate(event, sessionId));
      if (ga) {
        for (const call of ga.destination.deliveries(visitor, decorated, recording))
          ga.outbox.send(call);
      } else {
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
        logged.recorded += decorated.length;
        logged.sent += decorated.length;
      }
      if (meta) {
        for (const call of meta.destination.deliveries(visitor, decorated, recording))
          meta.outbox.send(call);
      }
    },

    async flush(deadlineMs) {
      await Promise.all([ga?.outbox.flush(deadlineMs), meta?.outbox.flush(deadlineMs)]);
    },

    close() {
      ga?.outbox.close();
      meta?.outbox.close();
    },

    stats() {
      const own: OutboxStats = ga
        ? ga.outbox.stats()
        : { ...logged, retried: 0, dropped: 0, unconfirmed: 0, queued: 0 };
      if (!meta) return own;
      const prefixed = Object.fromEntries(
        Object.entries(meta.outbox.stats()).map(([name, value]) => [`meta_${name}`, value]),
      );
      return { ...own, ...prefixed };
    },
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
