/**
 * Where events leave the site: the GA4 Measurement Protocol when it is configured, else one JSON
 * line per event on stdout; and, each opted in, Meta's Conversions API for each counted lead and
 * each chat a lead starts, and TikTok's Events API, Snap's Conversions API and Google Ads click
 * conversions for each counted lead (docs/decisions/023-ad-networks.md). Every call is written to the lead ledger first and sent from there by its
 * destination's outbox (app/analytics/outbox.server.ts): recording never waits, and nothing
 * recorded is lost to an outage or a restart (docs/decisions/015-lead-ledger.md).
 */

import type { AdLead } from "~/analytics/ad-lead.server";
import type { EventParams } from "~/analytics/events";
import {
  GOOGLE_ADS_MAX_AGE_MS,
  googleAdsHeaders,
  googleAdsLeadCall,
  judgeGoogleAds,
} from "~/analytics/google-ads.server";
import { createTokenCache } from "~/analytics/google-oauth.server";
import { type MetaLead, metaChatCall, metaLeadCall, metaStamp } from "~/analytics/meta-capi.server";
import {
  createOutbox,
  type Outbox,
  type OutboxStats,
  type Outcomes,
  type Post,
  type Troubles,
} from "~/analytics/outbox.server";
import { SNAP_MAX_AGE_MS, snapHeaders, snapLeadCall } from "~/analytics/snap.server";
import {
  judgeTiktok,
  TIKTOK_MAX_AGE_MS,
  tiktokHeaders,
  tiktokLeadCall,
} from "~/analytics/tiktok.server";
import { judgeMeta } from "~/analytics/verdict.server";
import type {
  ChatRecord,
  DestinationName,
  LeadRecord,
  Ledger,
  NewCall,
} from "~/leads/ledger/ledger.server";
import {
  type SharedLedger,
  sharedChatCall,
  sharedLeadCall,
} from "~/leads/ledger/shared-ledger.server";
import type { Visitor } from "~/leads/visitor.server";
import type { Config } from "~/platform/config.server";

export type OutboundEvent = { name: string; params: EventParams };

/** The destinations whose counters the stats line shows under their name (meta_sent, …). */
const PREFIXED = ["meta", "tiktok", "snap", "google_ads"] as const;

/** GA4's counters under their own names; the others', when configured, as meta_*, tiktok_*, …. */
export type SinkStats = OutboxStats &
  Partial<Record<`${(typeof PREFIXED)[number]}_${keyof OutboxStats}`, number>>;

export type Recording = {
  /** The GA4 session: the browser's (its batch, or a lead link's `sid`), else the visitor's. */
  sessionId?: string;
  /** A counted lead: kept in the ledger, and what Meta's Lead is made of (none for a share). */
  lead?: { record: LeadRecord; meta: MetaLead | null; ads?: AdLead | null };
  /** When the events happened (ms), if not now. */
  at?: number;
  /** A browser's own batch (page views, clicks), not a lead's. */
  browser?: boolean;
};

export type Sink = {
  record: (visitor: Visitor, events: OutboundEvent[], recording?: Recording) => void;
  /**
   * A chat seen on the WhatsApp webhook, with the lead whose reference it quoted and the events
   * that tell GA4 of it (on the lead's own client and session).
   */
  recordChat: (chat: ChatRecord, lead: LeadRecord | undefined, events: OutboundEvent[]) => void;
  /** Calls made elsewhere (the exposure counts' copy to Redis): kept in the ledger, then sent. */
  recordCalls: (calls: NewCall[]) => void;
  /** Sends what is owed within `deadlineMs`; the rest waits in the ledger for the next start. */
  flush: (deadlineMs: number) => Promise<void>;
  close: () => void;
  stats: () => SinkStats;
  /** Per destination: what is owed, and how the calls since start ended. */
  destinations: () => Array<
    { name: DestinationName } & OutboxStats & { outcomes: Outcomes; troubles: Troubles }
  >;
};

const GA4_BATCH_LIMIT = 25;

/**
 * Events sent this much later than they happened carry their own time (timestamp_micros): a
 * retry after backoff, a call owed from before a restart. Sooner, GA4 times them itself.
 */
export const BACKDATE_AFTER_MS = 2000;
/** GA4 takes timestamp_micros up to 72 hours back; older events are given up, not misdated. */
export const MAX_BACKDATE_MS = 72 * 3600_000;
/** Meta takes an event_time up to 7 days back. */
export const META_MAX_AGE_MS = 7 * 86_400_000;

/**
 * The GA4 body to send at `sentAt` for events that happened at `at`: as it is, or with
 * `timestamp_micros` first when it is measurably late, as Google documents it ("only for events
 * that happened in the past"); null past GA4's 72 hours.
 */
export function ga4Stamp(body: string, at: number, sentAt: number): string | null {
  const late = sentAt - at;
  if (late > MAX_BACKDATE_MS) return null;
  return late < BACKDATE_AFTER_MS ? body : `{"timestamp_micros":${at * 1000},${body.slice(1)}`;
}

/** GA4's calls for one client's events, 25 to a call. */
export function ga4Calls(
  url: URL,
  clientId: string,
  events: OutboundEvent[],
  at: number,
  lead?: string,
): NewCall[] {
  const calls: NewCall[] = [];
  for (let start = 0; start < events.length; start += GA4_BATCH_LIMIT) {
    const slice = events.slice(start, start + GA4_BATCH_LIMIT);
    const body = JSON.stringify({ client_id: clientId, events: slice });
    calls.push({ destination: "ga4", url: url.href, body, events: slice.length, at, lead });
  }
  return calls;
}

/** Where GA4's calls go, as the ledger keeps it: the measurement id, never the api_secret. */
function ga4Url(ga: NonNullable<Config["ga"]>, endpoint: string): URL {
  const url = new URL(endpoint);
  url.searchParams.set("measurement_id", ga.measurementId);
  return url;
}

/** The same address with the api_secret, made as a call is sent. */
export function ga4Address(url: string, apiSecret: string): URL {
  const address = new URL(url);
  address.searchParams.set("api_secret", apiSecret);
  return address;
}

type SinkOptions = {
  ga: Config["ga"];
  endpoint: string;
  meta?: Config["meta"];
  tiktok?: Config["tiktok"];
  snap?: Config["snap"];
  googleAds?: Config["googleAds"];
  ledger: Ledger;
  /** With REDIS_URL: where leads and chats are copied for every replica to see. */
  shared?: { ledger: SharedLedger; retentionDays: number } | null;
  /** Resolves with the status code; rejects on network errors, timeouts and `signal`. */
  post?: Post;
  writeLine?: (line: string) => void;
  now?: () => number;
};

/** Every credential configured: a log line never shows one, whatever a platform repeats. */
function secretsOf(options: SinkOptions): string[] {
  return [
    options.ga?.apiSecret,
    options.meta?.accessToken,
    options.tiktok?.accessToken,
    options.snap?.accessToken,
    options.googleAds?.developerToken,
    options.googleAds?.clientSecret,
    options.googleAds?.refreshToken,
  ].filter((secret): secret is string => Boolean(secret));
}

/** The server sees no page: 1 ms marks the visitor active without inventing engagement. */
function decorate(event: OutboundEvent, sessionId: string): OutboundEvent {
  return {
    name: event.name,
    params: {
      ...event.params,
      session_id: sessionId,
      engagement_time_msec: event.params.engagement_time_msec ?? 1,
    },
  };
}

export function createSink(options: SinkOptions): Sink {
  const { ledger } = options;
  const writeLine = options.writeLine ?? ((line: string) => process.stdout.write(`${line}\n`));
  const now = options.now ?? (() => Date.now());
  const gaUrl = options.ga ? ga4Url(options.ga, options.endpoint) : null;
  const outboxes = new Map<DestinationName, Outbox>();
  // Every outbox says what it refused or gave up in the process's log, never a credential.
  const common = {
    ledger,
    post: options.post,
    now,
    log: writeLine,
    secrets: secretsOf(options),
  };
  const ga = options.ga;
  if (gaUrl && ga) {
    outboxes.set(
      "ga4",
      createOutbox({
        ...common,
        destination: "ga4",
        deduplicates: false,
        maxAgeMs: MAX_BACKDATE_MS,
        stamp: (call, sentAt) => ga4Stamp(call.body, call.at, sentAt),
        address: (url) => ga4Address(url, ga.apiSecret),
      }),
    );
  }
  const meta = options.meta ?? null;
  if (meta) {
    outboxes.set(
      "meta",
      createOutbox({
        ...common,
        destination: "meta",
        deduplicates: true,
        maxAgeMs: META_MAX_AGE_MS,
        stamp: (call) => metaStamp(call.body, meta.accessToken),
        judge: judgeMeta,
      }),
    );
  }
  const tiktok = options.tiktok ?? null;
  if (tiktok) {
    outboxes.set(
      "tiktok",
      createOutbox({
        ...common,
        destination: "tiktok",
        // TikTok merges events with the same event_id.
        deduplicates: true,
        maxAgeMs: TIKTOK_MAX_AGE_MS,
        authorize: tiktokHeaders(tiktok),
        judge: judgeTiktok,
      }),
    );
  }
  const snap = options.snap ?? null;
  if (snap) {
    outboxes.set(
      "snap",
      createOutbox({
        ...common,
        destination: "snap",
        // Snap merges events with the same event_id.
        deduplicates: true,
        maxAgeMs: SNAP_MAX_AGE_MS,
        authorize: snapHeaders(snap),
      }),
    );
  }
  const googleAds = options.googleAds ?? null;
  if (googleAds) {
    const tokens = createTokenCache(googleAds, options.post ? { post: options.post } : {});
    outboxes.set(
      "google_ads",
      createOutbox({
        ...common,
        destination: "google_ads",
        // One conversion per order id: a repeat is answered as already there.
        deduplicates: true,
        maxAgeMs: GOOGLE_ADS_MAX_AGE_MS,
        authorize: googleAdsHeaders(googleAds, tokens),
        judge: judgeGoogleAds(tokens),
      }),
    );
  }
  const shared = options.shared ?? null;
  if (shared) {
    outboxes.set(
      "redis",
      createOutbox({
        ...common,
        destination: "redis",
        // A copy is a SET of the same value: writing it twice is harmless.
        deduplicates: true,
        maxAgeMs: shared.retentionDays * 86_400_000,
        post: shared.ledger.post,
      }),
    );
  }
  // Without GA4 the lines on stdout are the record: written is sent.
  const logged = { recorded: 0, sent: 0 };

  function logLines(clientId: string, events: OutboundEvent[]) {
    for (const event of events) {
      writeLine(
        JSON.stringify({
          type: "analytics",
          name: event.name,
          params: event.params,
          client_id: clientId,
        }),
      );
    }
    logged.recorded += events.length;
    logged.sent += events.length;
  }

  function hand(calls: ReturnType<Ledger["recordCalls"]>) {
    for (const [name, outbox] of outboxes) {
      outbox.sent(calls.filter((call) => call.destination === name));
    }
  }

  return {
    record(visitor, events, recording = {}) {
      const sessionId = recording.sessionId ?? visitor.sessionId;
      const decorated = events.map((event) => decorate(event, sessionId));
      const at = recording.at ?? now();
      const lead = recording.lead;
      const calls: NewCall[] = [];
      if (gaUrl) {
        const made = ga4Calls(gaUrl, visitor.clientId, decorated, at, lead?.record.id);
        // A browser's batch: given up first, if ever, while GA4 is down.
        calls.push(
          ...(lead || !recording.browser ? made : made.map((c) => ({ ...c, browser: true }))),
        );
      } else logLines(visitor.clientId, decorated);
      if (options.meta && lead?.meta) calls.push(metaLeadCall(options.meta, lead.meta));
      const ads = lead?.ads;
      if (tiktok && ads) calls.push(tiktokLeadCall(tiktok, ads));
      if (snap && ads) calls.push(snapLeadCall(snap, ads));
      const upload = googleAds && ads ? googleAdsLeadCall(googleAds, ads) : null;
      if (upload) calls.push(upload);
      if (shared && lead) calls.push(sharedLeadCall(lead.record));
      if (lead) hand(ledger.recordLead(lead.record, calls));
      else if (calls.length > 0) hand(ledger.recordCalls(calls));
    },

    recordChat(chat, lead, events) {
      const calls: NewCall[] = [];
      if (lead && events.length > 0) {
        const decorated = events.map((event) => decorate(event, lead.sessionId));
        if (gaUrl) calls.push(...ga4Calls(gaUrl, lead.clientId, decorated, chat.at, lead.id));
        else logLines(lead.clientId, decorated);
      }
      if (options.meta && (lead || chat.ctwaClid))
        calls.push(metaChatCall(options.meta, chat, lead));
      if (shared) {
        const own = chat.lead ? ledger.lead(chat.lead) : undefined;
        calls.push(
          sharedChatCall(chat, own && { ...own, status: "chat_started", chatAt: chat.at }),
        );
      }
      hand(ledger.recordChat(chat, calls));
    },

    recordCalls(calls) {
      if (calls.length > 0) hand(ledger.recordCalls(calls));
    },

    async flush(deadlineMs) {
      await Promise.all([...outboxes.values()].map((outbox) => outbox.flush(deadlineMs)));
    },

    close() {
      for (const outbox of outboxes.values()) outbox.close();
    },

    stats() {
      const ga = outboxes.get("ga4");
      const own: OutboxStats = ga
        ? ga.stats()
        : { ...logged, retried: 0, dropped: 0, unconfirmed: 0, queued: 0, oldest_ms: 0 };
      const prefixed = PREFIXED.flatMap((destination) => {
        const outbox = outboxes.get(destination);
        if (!outbox) return [];
        return Object.entries(outbox.stats()).map(([name, value]) => [
          `${destination}_${name}`,
          value,
        ]);
      });
      return { ...own, ...Object.fromEntries(prefixed) };
    },

    destinations: () =>
      [...outboxes].map(([name, outbox]) => ({
        name,
        ...outbox.stats(),
        outcomes: outbox.outcomes(),
        troubles: outbox.troubles(),
      })),
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
