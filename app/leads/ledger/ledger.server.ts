/**
 * The lead ledger: every counted lead, every chat it started, and every call still owed to a
 * destination, kept in a journal on disk (journal.server.ts) and in memory for reading
 * (docs/decisions/016-lead-ledger.md). A lead and the calls that report it are written in one
 * write before /thank-you answers, so what the site acknowledged is on disk (or, while the disk
 * refuses writes, held until it takes them); the outbox (analytics/outbox.server.ts) takes its
 * calls from here and writes back what became of them.
 *
 * What is kept about a visitor: the daily client id (a hash, never the address), the campaign
 * and click ids the lead link carried. The address and user agent the ad networks need (and
 * GA4: the address, and the device read from the user agent) travel only inside a pending call's
 * body, and go with it once the destination has confirmed it; the file is rewritten without them
 * within an hour. No credential is ever kept: each is added to a call
 * as it is sent. Whole leads go after LEAD_RETENTION_DAYS.
 */
import { randomBytes } from "node:crypto";
import type { ChatReferral } from "~/leads/chat-referral.server";
import { type Journal, type JournalState, memoryJournal } from "~/leads/ledger/journal.server";
import { checkEntry } from "~/leads/ledger/ledger-entry.server";
import type { PhoneHashes } from "~/leads/phone-hashes.server";
import type { PhoneOs } from "~/leads/phone-os";
import type { Stage } from "~/leads/stages.server";
import type { SetAsideReason } from "~/leads/variant-credit.server";
import type { Campaign } from "~/shared/campaign";

/**
 * Where calls go: a destination of the registry (analytics/destinations/registry.server.ts) by
 * its name, or "redis", the leads shared by replicas.
 */
export type DestinationName = string;

/** How a call left the outbox. `refused`: a 4xx that sending again cannot change. */
export type Outcome = "delivered" | "refused" | "unconfirmed" | "given_up";

export type LeadStatus = "new" | "chat_started";

export type LeadRecord = {
  /** Meta's event_id too: the same on every replica for the same lead (lead-ids.server.ts). */
  id: string;
  at: number;
  cta: string;
  language?: string;
  plan?: string;
  /** The campaign and click ids the lead link carried (shared/campaign.ts). */
  campaign: Campaign;
  /** GA4's ids for the visit, so a later chat joins the same user and session. */
  clientId: string;
  sessionId: string;
  /** WhatsApp leads: the reference their message carries. */
  ref?: string;
  /** Meta's fbc, when the visit came from a Meta ad. */
  fbc?: string;
  /** Meta's fbp: the browser id the site keeps for Meta, while Meta is a destination. */
  fbp?: string;
  /** Which button the lead came from ("hero", "sticky", "plan", "404", "thank-you"…). */
  placement?: string;
  /**
   * A lead the running experiment counts toward no variant, and why: its link carried none, or
   * one the experiment does not have (leads/variant-credit.server.ts). Never beside `experiment`.
   */
  experimentSetAside?: { experiment: string; reason: SetAsideReason };
  status: LeadStatus;
  chatAt?: number;
  /** The running experiment's variant the visitor saw (docs/decisions/022-experiments.md). */
  experiment?: { id: string; variant: string };
  /** From its chat: a Click-to-WhatsApp ad's click id, and the business account written to. */
  ctwaClid?: string;
  account?: string;
  /**
   * The driver's phone, hashed as the networks match it, from the chat: kept only while a later
   * stage may still need it, so gone at the lead's last stage (installed or lost).
   */
  phone?: PhoneHashes;
  /** Each later stage the team told of: when, and its value in AED. */
  stages?: Partial<Record<Stage, { at: number; value: number }>>;
  /** The phone's system at the tap, from its user agent: which beta link the reply carries. */
  os?: PhoneOs;
  /** When WhatsApp took the site's automatic reply with the beta link (the "link sent" stage). */
  linkSentAt?: number;
};

export type ChatRecord = {
  /** WhatsApp's message id (wamid…): a retried webhook delivery carries the same one. */
  messageId: string;
  at: number;
  /** The lead whose reference the message quoted, or null for a chat without a campaign. */
  lead: string | null;
  /** The Click-to-WhatsApp ad's click id, when the chat came from such an ad. */
  ctwaClid?: string;
  /** The WhatsApp Business Account the message came to (the webhook entry's id). */
  account?: string;
  /** The Click-to-WhatsApp ad or post it came from: its id, type and headline, nothing more. */
  referral?: ChatReferral;
};

export type NewCall = {
  destination: DestinationName;
  /** Where it goes, without any credential: those are added as it is sent. */
  url: string;
  body: string;
  /** Events it carries, for the counters. */
  events: number;
  /** When the events happened (ms): what the call says when it is sent late. */
  at: number;
  /** The lead it reports, if any: GA4's rule for an uncertain call depends on it. */
  lead?: string;
  /**
   * A browser's events (page views, clicks): while a destination is down, the only calls given
   * up for room (outbox.server.ts), never a lead's or a chat's.
   */
  browser?: boolean;
};

export type PendingCall = NewCall & {
  id: string;
  attempt: number;
  /** Not before this time (ms). */
  dueAt: number;
  /** Times it was sent without an answer saying whether it arrived. */
  uncertain: number;
  /** Was out when the process stopped: whether it arrived is unknown. */
  interrupted?: boolean;
};

type Entry =
  | { t: "lead"; lead: LeadRecord; calls?: PendingCall[] }
  | { t: "calls"; calls: PendingCall[] }
  | { t: "chat"; chat: ChatRecord; calls?: PendingCall[] }
  | ({ t: "status"; id: string; status: LeadStatus; at: number } & ChatOfLead)
  | { t: "stage"; id: string; stage: Stage; at: number; value: number; calls?: PendingCall[] }
  | { t: "link"; id: string; at: number; calls?: PendingCall[] }
  | { t: "send"; id: string }
  | { t: "retry"; id: string; attempt: number; dueAt: number; uncertain: number }
  | { t: "done"; id: string; outcome: Outcome }
  // An experiment's visitors: one line per exposure, totals after a rewrite.
  | ({ t: "exposure" } & Exposure)
  | ({ t: "exposures" } & ExposureCount)
  | { t: "replica"; id: string };

/** What a lead's first chat adds to it. */
type ChatOfLead = { ctwaClid?: string; account?: string; phone?: PhoneHashes };

/** The stages after which nothing more is told of a lead: its phone's hash goes then. */
const LAST_STAGES: readonly Stage[] = ["installed", "lost"];

/** A lead once a stage is told: the stage kept, and past its last stage, its phone gone. */
export function leadAfterStage(lead: LeadRecord, stage: Stage, at: number, value: number) {
  const { phone: _phone, ...rest } = lead;
  const stages = { ...lead.stages, [stage]: { at, value } };
  return { ...(LAST_STAGES.includes(stage) ? rest : lead), stages } satisfies LeadRecord;
}

/** One visitor taking part in an experiment on a Dubai day ("YYYY-MM-DD"), counted once. */
export type Exposure = { day: string; experiment: string; variant: string };
export type ExposureCount = Exposure & { count: number };

/** When a Dubai day ends (ms): Dubai keeps UTC+4 all year, with no daylight saving. */
export const dayEnd = (day: string) => Date.parse(`${day}T00:00:00+04:00`) + DAY_MS;

/** What the journal read back at start: each line parsed, with its number; or why it was not. */
export type ReplaySource = (
  onLine: (value: unknown, line: number) => void,
  onBad: (line: number, reason: string) => void,
) => void;

export type LedgerOptions = {
  journal?: Journal<Entry>;
  /** Entries read back from the journal at start, in order. */
  replay?: ReplaySource;
  retentionDays?: number;
  now?: () => number;
  /** Where the ledger says what it skipped at start (one line each). */
  log?: (line: string) => void;
};

export type PendingSummary = {
  calls: number;
  events: number;
  oldestAt: number | null;
  /** Calls of a browser's events among them. */
  browserCalls: number;
};

export type Ledger = ReturnType<typeof createLedger>;

export type { Entry as LedgerEntry };

const DAY_MS = 86_400_000;
/** How often old leads are dropped and the file rewritten without what was settled. */
export const SWEEP_EVERY_MS = 3_600_000;
/**
 * Settled calls pile up in the file between sweeps (a busy hour's browser batches are hundreds
 * of megabytes): past this much more than was alive at the last rewrite, it is rewritten sooner.
 */
export const REWRITE_AFTER_BYTES = 32 * 1024 * 1024;
/** Owed calls are rewritten this many to a line: no line grows with an outage. */
export const CALLS_PER_LINE = 200;
/** Skipped lines said one by one at start, then counted in one line. */
const SKIPPED_LINES_SAID = 1000;

let callCounter = 0;
const callId = () =>
  `${Date.now().toString(36)}${(callCounter++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/**
 * The calls still owed, by id and again by destination in the order they were recorded (the
 * outbox's order), with each destination's count of a browser's calls: one place changes all
 * three, so a call is never owed in one and settled in another. A destination this build does
 * not know (a rollback's leftovers) is kept the same way.
 */
function owedCalls() {
  const pending = new Map<string, PendingCall>();
  const pendingBy = new Map<string, Map<string, PendingCall>>();
  const browserOwed = new Map<string, number>();
  const owedTo = (destination: string) => {
    let calls = pendingBy.get(destination);
    if (!calls) {
      calls = new Map();
      pendingBy.set(destination, calls);
    }
    return calls;
  };
  /** A destination's calls, without making room for one that is owed none. */
  const known = (destination: string) => pendingBy.get(destination)?.values() ?? [];
  const browserCalls = (destination: string) => browserOwed.get(destination) ?? 0;
  return {
    pending,
    owedTo,
    known,
    browserCalls,
    owe(call: PendingCall) {
      const copy = { ...call };
      pending.set(call.id, copy);
      owedTo(call.destination).set(call.id, copy);
      if (call.browser)
        browserOwed.set(call.destination, (browserOwed.get(call.destination) ?? 0) + 1);
    },
    forget(id: string) {
      const call = pending.get(id);
      if (!call) return;
      pending.delete(id);
      pendingBy.get(call.destination)?.delete(id);
      if (call.browser)
        browserOwed.set(call.destination, (browserOwed.get(call.destination) ?? 1) - 1);
    },
    summary(destination: string): PendingSummary {
      let calls = 0;
      let events = 0;
      let oldestAt: number | null = null;
      for (const call of known(destination)) {
        calls += 1;
        events += call.events;
        if (oldestAt === null || call.at < oldestAt) oldestAt = call.at;
      }
      return { calls, events, oldestAt, browserCalls: browserCalls(destination) };
    },
  };
}

/**
 * Exposures by day, experiment and variant: counters, never visitors, kept apart from the leads
 * because they live by the day, not by the lead. The key is the three joined by a newline, which
 * no id or day holds.
 */
function exposureCounts() {
  const counts = new Map<string, number>();
  const keyOf = (e: Exposure) => `${e.day}\n${e.experiment}\n${e.variant}`;
  const exposureOf = (key: string): Exposure => {
    const [day = "", experiment = "", variant = ""] = key.split("\n");
    return { day, experiment, variant };
  };
  return {
    add(exposure: Exposure, count: number) {
      const key = keyOf(exposure);
      counts.set(key, (counts.get(key) ?? 0) + count);
    },
    list: (): ExposureCount[] => [...counts].map(([key, count]) => ({ ...exposureOf(key), count })),
    /** The days not wholly older than `cutoff`, as the entries that would make them again. */
    *live(cutoff: number): Iterable<Entry> {
      for (const [key, count] of counts) {
        const exposure = exposureOf(key);
        if (dayEnd(exposure.day) > cutoff) yield { t: "exposures", ...exposure, count };
      }
    },
    /** A day's exposures go once the whole day is older than the retention. */
    dropBefore(cutoff: number) {
      for (const key of counts.keys()) {
        if (!(dayEnd(exposureOf(key).day) > cutoff)) counts.delete(key);
      }
    },
  };
}

/**
 * The journal read back at start into `apply`, each line checked first (and a call an older
 * build wrote with a credential kept without it): a bad line costs itself, never the start. What
 * is skipped is said one line each, then counted in one line; returns how many were skipped.
 */
function replayChecked(
  replay: ReplaySource,
  apply: (entry: Entry) => void,
  log: (line: string) => void,
): number {
  let skippedAtStart = 0;
  const skipped = (line: number, reason: string) => {
    skippedAtStart += 1;
    if (skippedAtStart <= SKIPPED_LINES_SAID) {
      log(JSON.stringify({ type: "ledger_line_skipped", line, reason }));
    }
  };
  replay((value, line) => {
    const checked = checkEntry(value);
    if (typeof checked === "string") return skipped(line, checked);
    for (const reason of checked.dropped) skipped(line, reason);
    apply(checked.entry);
  }, skipped);
  if (skippedAtStart > SKIPPED_LINES_SAID) {
    log(
      JSON.stringify({
        type: "ledger_lines_skipped",
        lines: skippedAtStart,
        said: SKIPPED_LINES_SAID,
      }),
    );
  }
  return skippedAtStart;
}

/**
 * The leads (by id, and by the reference a WhatsApp message quotes) and the chats: what a lead's
 * entries change of it, and what is read of them. Its own piece so that a lead and its reference
 * are only ever added and dropped together.
 */
function leadBook() {
  const leads = new Map<string, LeadRecord>();
  const byRef = new Map<string, string>();
  const chats = new Map<string, ChatRecord>();
  return {
    leads,
    chats,
    addLead(lead: LeadRecord) {
      leads.set(lead.id, lead);
      if (lead.ref) byRef.set(lead.ref, lead.id);
    },
    addChat(chat: ChatRecord) {
      chats.set(chat.messageId, chat);
    },
    chatStarted(entry: Extract<Entry, { t: "status" }>) {
      const lead = leads.get(entry.id);
      if (!lead) return;
      const { ctwaClid, account, phone } = entry;
      leads.set(entry.id, {
        ...lead,
        status: entry.status,
        chatAt: entry.at,
        ...(ctwaClid ? { ctwaClid } : {}),
        ...(account ? { account } : {}),
        // A lead past its last stage needs no phone any more.
        ...(phone && !LAST_STAGES.some((stage) => lead.stages?.[stage]) ? { phone } : {}),
      });
    },
    stageTold(entry: Extract<Entry, { t: "stage" }>) {
      const lead = leads.get(entry.id);
      if (lead) leads.set(entry.id, leadAfterStage(lead, entry.stage, entry.at, entry.value));
    },
    linkSent(entry: Extract<Entry, { t: "link" }>) {
      const lead = leads.get(entry.id);
      if (lead && lead.linkSentAt === undefined)
        leads.set(entry.id, { ...lead, linkSentAt: entry.at });
    },
    /** Leads and chats older than the retention go. */
    dropBefore(cutoff: number) {
      for (const [id, lead] of leads) {
        if (lead.at >= cutoff) continue;
        leads.delete(id);
        if (lead.ref) byRef.delete(lead.ref);
      }
      for (const [id, chat] of chats) if (chat.at < cutoff) chats.delete(id);
    },
    /** The ledger's reading side. */
    reading: {
      lead: (id: string) => leads.get(id),
      leadByRef: (ref: string) => {
        const id = byRef.get(ref);
        return id === undefined ? undefined : leads.get(id);
      },
      refTaken: (ref: string) => byRef.has(ref),
      chatSeen: (messageId: string) => chats.has(messageId),
      leads: (since = 0) => [...leads.values()].filter((lead) => lead.at >= since),
      chats: (since = 0) => [...chats.values()].filter((chat) => chat.at >= since),
    },
  };
}

/**
 * What this process counted since it started, for /metrics, and who watches each lead's write
 * time (the histogram, which the bench reads too). Its own piece: none of it is in the journal.
 */
function countedSinceStart() {
  const leads = new Map<string, number>();
  const stages = new Map<string, number>();
  let chatsMatched = 0;
  let chatsUnmatched = 0;
  const leadWriteWatchers = new Set<(seconds: number) => void>();
  return {
    lead(cta: string, tookMs: number) {
      for (const watch of leadWriteWatchers) watch(tookMs / 1000);
      leads.set(cta, (leads.get(cta) ?? 0) + 1);
    },
    chat(matched: boolean) {
      if (matched) chatsMatched += 1;
      else chatsUnmatched += 1;
    },
    stage(stage: Stage) {
      stages.set(stage, (stages.get(stage) ?? 0) + 1);
    },
    /** Calls `watch` with each lead's write time from now on (seconds); returns how to stop. */
    watchLeadWrites(watch: (seconds: number) => void): () => void {
      leadWriteWatchers.add(watch);
      return () => leadWriteWatchers.delete(watch);
    },
    /** Leads by cta and chats recorded since this process started. */
    counted: () => ({
      leads: Object.fromEntries(leads),
      chatsMatched,
      chatsUnmatched,
      stages: Object.fromEntries(stages),
    }),
  };
}

/**
 * What each entry changes in memory: the same whether it was just written or read back at start,
 * so the two can never disagree. `settled` and `named` are told of what the ledger keeps beside.
 */
function entryApplier({
  book,
  owed,
  out,
  exposures,
  settled,
  named,
}: {
  book: ReturnType<typeof leadBook>;
  owed: ReturnType<typeof owedCalls>;
  /** Calls out now (sent, not yet answered). */
  out: Set<string>;
  exposures: ReturnType<typeof exposureCounts>;
  settled: () => void;
  named: (replica: string) => void;
}) {
  const { pending, owe, forget } = owed;
  return function apply(entry: Entry) {
    switch (entry.t) {
      case "lead":
        book.addLead(entry.lead);
        for (const call of entry.calls ?? []) owe(call);
        break;
      case "calls":
        for (const call of entry.calls) owe(call);
        break;
      case "chat":
        book.addChat(entry.chat);
        for (const call of entry.calls ?? []) owe(call);
        break;
      case "status":
        book.chatStarted(entry);
        break;
      case "stage":
        for (const call of entry.calls ?? []) owe(call);
        book.stageTold(entry);
        break;
      case "link":
        for (const call of entry.calls ?? []) owe(call);
        book.linkSent(entry);
        break;
      case "send":
        out.add(entry.id);
        break;
      case "retry": {
        out.delete(entry.id);
        const call = pending.get(entry.id);
        // Dealt with: no longer a call that was out when the process stopped.
        if (call) {
          Object.assign(call, {
            attempt: entry.attempt,
            dueAt: entry.dueAt,
            uncertain: entry.uncertain,
          });
          delete call.interrupted;
        }
        break;
      }
      case "done":
        out.delete(entry.id);
        forget(entry.id);
        settled();
        break;
      case "exposure":
      case "exposures":
        exposures.add(entry, entry.t === "exposures" ? entry.count : 1);
        break;
      case "replica":
        named(entry.id);
        break;
    }
  };
}

/**
 * Everything still alive at `cutoff`, as the entries that would make it again: what a rewrite
 * or a backup writes. Its own piece because what it leaves out is what the ledger forgets.
 */
function* liveEntries(
  cutoff: number,
  {
    book,
    owed,
    out,
    replica,
    exposures,
  }: {
    book: ReturnType<typeof leadBook>;
    owed: ReturnType<typeof owedCalls>;
    out: Set<string>;
    replica: () => string | undefined;
    exposures: ReturnType<typeof exposureCounts>;
  },
): Iterable<Entry> {
  for (const lead of book.leads.values()) if (lead.at >= cutoff) yield { t: "lead", lead };
  for (const chat of book.chats.values()) if (chat.at >= cutoff) yield { t: "chat", chat };
  // A call out right now, or out when an earlier process stopped, stays so until an outbox
  // has dealt with it, across any restart.
  let calls: PendingCall[] = [];
  for (const { interrupted, ...call } of owed.pending.values()) {
    calls.push(interrupted || out.has(call.id) ? { ...call, interrupted: true } : call);
    if (calls.length === CALLS_PER_LINE) {
      yield { t: "calls", calls };
      calls = [];
    }
  }
  if (calls.length > 0) yield { t: "calls", calls };
  const id = replica();
  if (id) yield { t: "replica", id };
  yield* exposures.live(cutoff);
}

/**
 * What was out when the process stopped may or may not have arrived: marked so, and the outbox
 * decides. Its own step because it runs once, between reading the journal and the first sweep.
 */
function interruptedAtStart(out: Set<string>, owed: ReturnType<typeof owedCalls>) {
  for (const id of out) {
    const call = owed.pending.get(id);
    if (call) call.interrupted = true;
  }
  out.clear();
}

const withIds = (calls: NewCall[]): PendingCall[] =>
  calls.map((call) => ({ ...call, id: callId(), attempt: 0, dueAt: 0, uncertain: 0 }));

/**
 * The writing side: each record is one write of the journal, made before it returns, with what
 * it counts. Its own piece because it is the ledger's promise to /thank-you and the webhook.
 */
function recorder({
  write,
  book,
  counted,
}: {
  write: (entry: Entry) => void;
  book: ReturnType<typeof leadBook>;
  counted: ReturnType<typeof countedSinceStart>;
}) {
  return {
    /** Records a lead and the calls that report it, in one write. */
    recordLead(lead: LeadRecord, calls: NewCall[]): PendingCall[] {
      const withId = withIds(calls);
      const started = performance.now();
      write({ t: "lead", lead, calls: withId });
      counted.lead(lead.cta, performance.now() - started);
      return withId;
    },
    /** Calls that report no lead (a browser's batch of events). */
    recordCalls(calls: NewCall[]): PendingCall[] {
      const withId = withIds(calls);
      if (withId.length > 0) write({ t: "calls", calls: withId });
      return withId;
    },
    /**
     * A chat seen on the webhook, the calls that report it, and its lead's new status, with what
     * its first chat tells of it (the ad's click, the account, the phone's hashes).
     */
    recordChat(chat: ChatRecord, calls: NewCall[], phone?: PhoneHashes): PendingCall[] {
      const withId = withIds(calls);
      write({ t: "chat", chat, calls: withId });
      counted.chat(Boolean(chat.lead));
      if (chat.lead && book.leads.get(chat.lead)?.status === "new") {
        write({
          t: "status",
          id: chat.lead,
          status: "chat_started",
          at: chat.at,
          ...(chat.ctwaClid ? { ctwaClid: chat.ctwaClid } : {}),
          ...(chat.account ? { account: chat.account } : {}),
          ...(phone ? { phone } : {}),
        });
      }
      return withId;
    },
    /** A lead's later stage and the calls that report it, in one write. */
    recordStage(id: string, stage: Stage, at: number, value: number, calls: NewCall[]) {
      const withId = withIds(calls);
      write({ t: "stage", id, stage, at, value, calls: withId });
      counted.stage(stage);
      return withId;
    },
    /** WhatsApp took the lead's automatic reply (its "link sent" stage), and the calls telling of it. */
    recordLinkSent(id: string, at: number, calls: NewCall[]) {
      const withId = withIds(calls);
      write({ t: "link", id, at, calls: withId });
      return withId;
    },
    /** A lead another replica counted (found in Redis), kept here so its chat can change it. */
    adoptLead(lead: LeadRecord) {
      if (!book.leads.has(lead.id)) write({ t: "lead", lead });
    },
  };
}

/**
 * The outbox's side (analytics/outbox.server.ts): what a destination is owed, and what became
 * of each call. Its own piece because only the outbox uses it, and it writes only calls' fates.
 */
function outboxSide(
  owed: ReturnType<typeof owedCalls>,
  write: (entry: Entry) => void,
  afterSettle: () => void,
) {
  return {
    /** What a destination is owed. */
    pendingCalls: (destination: string) => [...owed.known(destination)],
    isPending: (id: string) => owed.pending.has(id),
    /** The same, as the ledger holds them: for the outbox, which stops early. */
    pendingOf: (destination: string) => owed.owedTo(destination).values(),
    pendingSummary: owed.summary,
    /** How many calls of a browser's events a destination is owed (kept count of, not counted). */
    browserCallsOwed: owed.browserCalls,
    /** Written before a call goes out: after a crash, it is known to have maybe arrived. */
    sending: (id: string) => write({ t: "send", id }),
    retryLater: (id: string, attempt: number, dueAt: number, uncertain: number) =>
      write({ t: "retry", id, attempt, dueAt, uncertain }),
    settle(id: string, outcome: Outcome) {
      write({ t: "done", id, outcome });
      afterSettle();
    },
  };
}

/**
 * The pieces above, over one journal: the leads and chats (leadBook), the calls owed
 * (owedCalls), the exposures (exposureCounts), what each entry changes (entryApplier), and the
 * sweep that rewrites the file with what is alive (liveEntries).
 */
export function createLedger(options: LedgerOptions = {}) {
  const journal = options.journal ?? memoryJournal<Entry>();
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const retentionMs = (options.retentionDays ?? 90) * DAY_MS;
  const book = leadBook();
  const owed = owedCalls();
  /** Calls out now (sent, not yet answered), by id. */
  const out = new Set<string>();
  let settledSinceRewrite = 0;
  let liveBytes = 0;
  const counted = countedSinceStart();
  const exposures = exposureCounts();
  /** This ledger's name among replicas (its exposure totals in Redis), made when first asked. */
  let replica: string | undefined;
  const apply = entryApplier({
    book,
    owed,
    out,
    exposures,
    settled: () => {
      settledSinceRewrite += 1;
    },
    named: (id) => {
      replica = id;
    },
  });

  /** Lines skipped when the ledger was read at start. */
  const skippedAtStart = options.replay ? replayChecked(options.replay, apply, log) : 0;
  interruptedAtStart(out, owed);

  /** Everything still alive, as the entries that would make it again. */
  function* live(): Iterable<Entry> {
    yield* liveEntries(now() - retentionMs, { book, owed, out, replica: () => replica, exposures });
  }

  function sweep() {
    const cutoff = now() - retentionMs;
    book.dropBefore(cutoff);
    // A call no outbox took (its destination no longer configured) goes with its lead. Any
    // outbox that runs gives a call up, counted, long before: GA4 after 72 hours, Meta 7 days.
    for (const [id, call] of owed.pending) if (call.at < cutoff) owed.forget(id);
    exposures.dropBefore(cutoff);
    // A disk that refuses the rewrite keeps the old file; the next sweep tries again.
    if (journal.rewrite(live())) {
      settledSinceRewrite = 0;
      liveBytes = journal.bytes();
    }
  }

  // Settled calls (and the addresses in their bodies) leave the file at the next rewrite.
  const sweeper = setInterval(sweep, SWEEP_EVERY_MS);
  sweeper.unref();
  if (settledSinceRewrite > 0 || options.replay) sweep();

  function write(entry: Entry) {
    journal.append(entry);
    apply(entry);
  }

  return {
    ...recorder({ write, book, counted }),
    ...book.reading,

    /**
     * Counts one visitor's first view of an experiment that day (the caller deduplicates): one
     * short line, written before it returns like every entry, and not waiting for the disk.
     */
    recordExposure: ({ day, experiment, variant }: Exposure) =>
      write({ t: "exposure", day, experiment, variant }),
    /** Exposures by day, experiment and variant, within the retention. */
    exposures: (): ExposureCount[] => exposures.list(),
    /** This ledger's lasting name, written to its journal the first time it is asked for. */
    replicaId(): string {
      if (replica === undefined) write({ t: "replica", id: randomBytes(8).toString("hex") });
      return replica as string;
    },

    ...outboxSide(owed, write, () => {
      if (journal.bytes() > 2 * liveBytes + REWRITE_AFTER_BYTES) sweep();
    }),
    watchLeadWrites: counted.watchLeadWrites,
    counted: counted.counted,
    /** Whether the disk takes the ledger's writes, and what waits for it. */
    state: (): JournalState & { skippedAtStart: number } => ({
      ...journal.state(),
      skippedAtStart,
    }),
    /** Everything alive, as entries: what a backup or a rewrite writes. */
    live,
    /** Drops leads past their retention and rewrites the file with what is alive. */
    sweep,
    bytes: () => journal.bytes(),
    close() {
      clearInterval(sweeper);
      journal.close();
    },
  };
}
