/**
 * Where events leave the site (docs/decisions/025-destination-registry.md): each destination
 * the settings turn on (analytics/destinations/registry.server.ts) turns a lead's moments into
 * calls: GA4 takes every event the site records (without it, each is one JSON line on stdout),
 * the ad networks the tap, the chat and the later stages they are set to hear of. Every call is
 * written to the lead ledger first and sent from there by its destination's outbox
 * (analytics/outbox.server.ts): recording never waits, and nothing recorded is lost to an
 * outage or a restart (docs/decisions/016-lead-ledger.md). With REDIS_URL, leads and chats are
 * copied to Redis the same way, for every replica to see.
 */

import type {
  ChatFacts,
  Configured,
  EventBatch,
  StageFacts,
  TapFacts,
} from "~/analytics/destinations/destination.server";
import {
  createOutbox,
  type Outbox,
  type OutboxStats,
  type Outcomes,
  type Post,
  type Troubles,
} from "~/analytics/outbox.server";
import {
  type ChatRecord,
  type LeadRecord,
  type Ledger,
  leadAfterStage,
  type NewCall,
} from "~/leads/ledger/ledger.server";
import {
  type SharedLedger,
  sharedChatCall,
  sharedLeadCall,
} from "~/leads/ledger/shared-ledger.server";
import type { Visitor } from "~/leads/visitor.server";
import type { OutboundEvent } from "~/shared/events";

export {
  BACKDATE_AFTER_MS,
  ga4Calls,
  ga4Stamp,
  MAX_BACKDATE_MS,
} from "~/analytics/destinations/ga4.server";
export { META_MAX_AGE_MS } from "~/analytics/destinations/meta.server";
export type { OutboundEvent } from "~/shared/events";

/** GA4's counters under their own names; every other destination's as <name>_sent, …. */
export type SinkStats = OutboxStats & Record<string, number>;

export type Recording = {
  /** The GA4 session: the browser's (its batch, or a lead link's `sid`), else the visitor's. */
  sessionId?: string;
  /** A counted lead: kept in the ledger, and what the networks are told of its tap (none for a share). */
  lead?: { record: LeadRecord; tap: TapFacts | null };
  /** When the events happened (ms), if not now. */
  at?: number;
  /** A browser's own batch (page views, clicks), not a lead's. */
  browser?: boolean;
};

export type Sink = {
  record: (visitor: Visitor, events: OutboundEvent[], recording?: Recording) => void;
  /**
   * A chat seen on the WhatsApp webhook, and what it tells: GA4's events on its lead's own
   * client and session, and each network's chat event (only for a lead's first chat, or an ad's
   * chat without a lead: `facts.lead` says which).
   */
  recordChat: (chat: ChatRecord, facts: ChatFacts | null, events: OutboundEvent[]) => void;
  /** A lead's later stage: kept in the ledger once, and told to GA4 and the networks. */
  recordStage: (facts: StageFacts, events: OutboundEvent[]) => void;
  /** Calls made elsewhere (the exposure counts' copy to Redis): kept in the ledger, then sent. */
  recordCalls: (calls: NewCall[]) => void;
  /** Sends what is owed within `deadlineMs`; the rest waits in the ledger for the next start. */
  flush: (deadlineMs: number) => Promise<void>;
  close: () => void;
  stats: () => SinkStats;
  /** Per destination: what is owed, and how the calls since start ended. */
  destinations: () => Array<
    { name: string } & OutboxStats & { outcomes: Outcomes; troubles: Troubles }
  >;
};

type SinkOptions = {
  /** The destinations the settings turn on (registry.server.ts readDestinations). */
  destinations: Configured[];
  ledger: Ledger;
  /** With REDIS_URL: where leads and chats are copied for every replica to see. */
  shared?: { ledger: SharedLedger; retentionDays: number } | null;
  /** Resolves with the status code; rejects on network errors, timeouts and `signal`. */
  post?: Post;
  writeLine?: (line: string) => void;
  now?: () => number;
};

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

/**
 * One outbox per destination the settings turn on, and one for the copy to Redis: built apart
 * from the sink because each is its own queue over the same ledger, and the sink only hands
 * them calls. Every outbox says what it refused or gave up in the process's log, never a
 * credential.
 */
function outboxesFor({
  configured,
  ledger,
  shared,
  post,
  writeLine,
  now,
  linkSent,
}: {
  configured: Configured[];
  ledger: Ledger;
  shared: SinkOptions["shared"];
  post: Post | undefined;
  writeLine: (line: string) => void;
  now: () => number;
  /** A lead's reply delivered: its "link sent" stage. */
  linkSent: (lead: string | undefined) => void;
}): Map<string, Outbox> {
  const secrets = configured.flatMap((destination) => destination.secrets);
  const outboxes = new Map<string, Outbox>();
  for (const destination of configured) {
    outboxes.set(
      destination.name,
      createOutbox({
        ...destination.sending({ post }),
        ...(destination.marksLinkSent ? { delivered: (call) => linkSent(call.lead) } : {}),
        destination: destination.name,
        ledger,
        deduplicates: destination.deduplicates,
        maxAgeMs: destination.maxAgeMs,
        secrets,
        log: writeLine,
        post,
        now,
      }),
    );
  }
  if (shared) {
    outboxes.set(
      "redis",
      createOutbox({
        destination: "redis",
        ledger,
        // A copy is a SET of the same value: writing it twice is harmless.
        deduplicates: true,
        maxAgeMs: shared.retentionDays * 86_400_000,
        post: shared.ledger.post,
        log: writeLine,
        now,
      }),
    );
  }
  return outboxes;
}

/**
 * The site's own events: calls to what takes them (GA4), or, without one, one JSON line each on
 * stdout, counted as written is sent. Its own piece because the two ways out share one counter.
 */
function siteEvents(configured: Configured[], writeLine: (line: string) => void) {
  /** What takes the site's own events (GA4); without one, the log does. */
  const takers = configured.filter((destination) => destination.events);
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

  return {
    logged,
    calls(batch: EventBatch): NewCall[] {
      if (batch.events.length === 0) return [];
      if (takers.length === 0) {
        logLines(batch.clientId, batch.events);
        return [];
      }
      return takers.flatMap((destination) => destination.events?.(batch) ?? []);
    },
  };
}

/**
 * The lead as its first chat leaves it, phone's hash included, for the copy to Redis: another
 * replica's stage finds it there. Its own piece: it must say what the ledger's own status entry
 * says, and reads apart from the sending.
 */
function leadAfterChat(
  own: LeadRecord | undefined,
  chat: ChatRecord,
  facts: ChatFacts | null,
): LeadRecord | undefined {
  const lead = facts?.lead;
  return (
    own && {
      ...own,
      status: "chat_started" as const,
      chatAt: own.chatAt ?? chat.at,
      ...(lead && chat.ctwaClid ? { ctwaClid: chat.ctwaClid } : {}),
      ...(lead && chat.account ? { account: chat.account } : {}),
      ...(lead && facts?.phone ? { phone: facts.phone } : {}),
    }
  );
}

/**
 * GA4's counters under their own names (or the log's, without GA4), every other destination's
 * as <name>_sent, …; Redis's copy is not an analytics destination and is left out.
 */
function sinkStats(
  outboxes: Map<string, Outbox>,
  logged: { recorded: number; sent: number },
): SinkStats {
  const ga = outboxes.get("ga4");
  const own: OutboxStats = ga
    ? ga.stats()
    : { ...logged, retried: 0, dropped: 0, unconfirmed: 0, queued: 0, oldest_ms: 0 };
  const prefixed = [...outboxes]
    .filter(([name]) => name !== "ga4" && name !== "redis")
    .flatMap(([name, outbox]) =>
      Object.entries(outbox.stats()).map(([counter, value]) => [`${name}_${counter}`, value]),
    );
  return { ...own, ...Object.fromEntries(prefixed) };
}

/**
 * Every destination's calls are written to the ledger first, then handed to the outboxes; the
 * pieces: the outboxes (outboxesFor), the site's own events (siteEvents), the lead's copy after
 * a chat (leadAfterChat), and the counters (sinkStats).
 */
export function createSink(options: SinkOptions): Sink {
  const { ledger } = options;
  const writeLine = options.writeLine ?? ((line: string) => process.stdout.write(`${line}\n`));
  const now = options.now ?? (() => Date.now());
  const configured = options.destinations;
  const shared = options.shared ?? null;
  const post = options.post;
  const outboxes = outboxesFor({
    configured,
    ledger,
    shared,
    post,
    writeLine,
    now,
    linkSent: (id) => linkSent(id),
  });
  const events = siteEvents(configured, writeLine);

  function hand(calls: ReturnType<Ledger["recordCalls"]>) {
    for (const [name, outbox] of outboxes) {
      outbox.sent(calls.filter((call) => call.destination === name));
    }
  }

  /** WhatsApp took a lead's reply: its "link sent" stage, on every replica's copy too. */
  function linkSent(id: string | undefined) {
    const lead = id === undefined ? undefined : ledger.lead(id);
    if (!lead || lead.linkSentAt !== undefined) return;
    const at = now();
    const calls = shared ? [sharedLeadCall({ ...lead, linkSentAt: at })] : [];
    hand(ledger.recordLinkSent(lead.id, at, calls));
  }

  return {
    record(visitor, recorded, recording = {}) {
      const sessionId = recording.sessionId ?? visitor.sessionId;
      const lead = recording.lead;
      const at = recording.at ?? now();
      const calls = events.calls({
        clientId: visitor.clientId,
        events: recorded.map((event) => decorate(event, sessionId)),
        at,
        ...(lead ? { lead: lead.record.id } : {}),
        ...(recording.browser ? { browser: true } : {}),
        from: { address: visitor.address, userAgent: visitor.userAgent },
      });
      const tap = lead?.tap;
      if (tap) for (const destination of configured) calls.push(...(destination.tap?.(tap) ?? []));
      if (shared && lead) calls.push(sharedLeadCall(lead.record));
      if (lead) hand(ledger.recordLead(lead.record, calls));
      else if (calls.length > 0) hand(ledger.recordCalls(calls));
    },

    recordChat(chat, facts, recorded) {
      const lead = facts?.lead;
      // No `from`: WhatsApp's webhook tells of the chat, not the visitor's phone, so GA4 gets
      // neither a device nor a location for it.
      const calls = lead
        ? events.calls({
            clientId: lead.clientId,
            events: recorded.map((event) => decorate(event, lead.sessionId)),
            at: chat.at,
            lead: lead.id,
          })
        : [];
      if (facts) {
        for (const destination of configured) calls.push(...(destination.chat?.(facts) ?? []));
      }
      if (shared) {
        const own = chat.lead ? ledger.lead(chat.lead) : undefined;
        calls.push(sharedChatCall(chat, leadAfterChat(own, chat, facts)));
      }
      hand(ledger.recordChat(chat, calls, facts?.phone));
    },

    recordStage(facts, recorded) {
      const { lead } = facts;
      // No `from`: the team or the app's back end tells of a stage, not the visitor.
      const calls = events.calls({
        clientId: lead.clientId,
        events: recorded.map((event) => decorate(event, lead.sessionId)),
        at: facts.at,
        lead: lead.id,
      });
      for (const destination of configured) calls.push(...(destination.stage?.(facts) ?? []));
      // Every replica sees the stage on its copy of the lead (and, past the last, no phone).
      if (shared) {
        calls.push(sharedLeadCall(leadAfterStage(lead, facts.stage, facts.at, facts.value)));
      }
      hand(ledger.recordStage(lead.id, facts.stage, facts.at, facts.value, calls));
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

    stats: () => sinkStats(outboxes, events.logged),

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
