import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fsModule from "node:fs";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fileJournal, type Journal, replayJournal } from "~/leads/ledger/journal.server";
import {
  CALLS_PER_LINE,
  type ChatRecord,
  createLedger,
  type LeadRecord,
  type Ledger,
  type LedgerEntry,
  type LedgerOptions,
  leadAfterStage,
  type NewCall,
  REWRITE_AFTER_BYTES,
  SWEEP_EVERY_MS,
} from "~/leads/ledger/ledger.server";
import {
  LEDGER_FILE,
  LOCK_HEARTBEAT_MS,
  openLedger,
  readLedger,
} from "~/leads/ledger/open-ledger.server";
import { ConfigError } from "~/settings.server";

const NOW = 1_764_000_000_000;
const DAY = 86_400_000;
const GA_URL = "https://www.google-analytics.com/mp/collect?measurement_id=G-1";
const META_URL = "https://graph.facebook.com/v23.0/123/events";
const ADDRESS = "203.0.113.7";

let dir: string;
const opened: Ledger[] = [];
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ledger-test-"));
});
afterEach(async () => {
  vi.useRealTimers();
  for (const ledger of opened.splice(0)) ledger.close();
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill();
      await exited;
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

function lead(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id: "lead-1",
    at: NOW,
    cta: "whatsapp",
    language: "en",
    campaign: { source: "instagram", fbclid: "IwAR2xyz" },
    clientId: "1234567.7654321",
    sessionId: "1764000000",
    ref: "DRB-7K2QX",
    fbc: "fb.1.1764000000000.IwAR2xyz",
    status: "new",
    ...overrides,
  };
}

function ga4Call(n: number, leadId?: string, at = NOW): NewCall {
  return {
    destination: "ga4",
    url: GA_URL,
    body: JSON.stringify({ client_id: "1.2", events: [{ name: "conversion", params: { n } }] }),
    events: 1,
    at,
    ...(leadId ? { lead: leadId } : {}),
  };
}

function metaCall(leadId: string, at = NOW): NewCall {
  return {
    destination: "meta",
    url: META_URL,
    body: JSON.stringify({
      data: [{ event_id: leadId, user_data: { client_ip_address: ADDRESS } }],
    }),
    events: 1,
    at,
    lead: leadId,
  };
}

/** A phone's two hashes, as the webhook makes them (analytics/destinations/destination.server.ts). */
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const PHONE = { e164: sha256("+971501234567"), digits: sha256("971501234567") };

function stageCall(leadId: string, stage: string, at = NOW): NewCall {
  return {
    destination: "tiktok",
    url: "https://business-api.tiktok.com/open_api/v1.3/event/track/",
    body: JSON.stringify({
      data: [{ event_id: `${leadId}.${stage}`, user: { phone: PHONE.e164 } }],
    }),
    events: 1,
    at,
    lead: leadId,
  };
}

function chat(overrides: Partial<ChatRecord> = {}): ChatRecord {
  return { messageId: "wamid.1", at: NOW + 60_000, lead: "lead-1", ...overrides };
}

const path = () => join(dir, LEDGER_FILE);

/** A ledger on a file in the test's directory, read back from it as a start-up does. */
function onFile(options: Omit<LedgerOptions, "journal" | "replay"> = {}): Ledger {
  const file = path();
  const ledger = createLedger({
    journal: fileJournal<LedgerEntry>(file),
    replay: (onLine, onBad) => replayJournal(file, onLine, onBad),
    // The fixtures' time, not the machine's: their leads are within the retention.
    now: () => NOW,
    ...options,
  });
  opened.push(ledger);
  return ledger;
}

/** Stops a ledger as a crash would leave it: whatever was written is on disk. */
function stop(ledger: Ledger) {
  opened.splice(opened.indexOf(ledger), 1);
  ledger.close();
}

describe("recording", () => {
  it("keeps a lead, its reference, and its calls with fresh ids", () => {
    const ledger = createLedger();
    const calls = ledger.recordLead(lead(), [ga4Call(1, "lead-1"), metaCall("lead-1")]);
    expect(calls).toHaveLength(2);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    for (const call of calls) expect(call).toMatchObject({ attempt: 0, dueAt: 0, uncertain: 0 });
    expect(ledger.lead("lead-1")).toEqual(lead());
    expect(ledger.leadByRef("DRB-7K2QX")?.id).toBe("lead-1");
    expect(ledger.refTaken("DRB-7K2QX")).toBe(true);
    expect(ledger.refTaken("DRB-22222")).toBe(false);
    expect(ledger.leadByRef("DRB-22222")).toBeUndefined();
    expect(ledger.pendingCalls("ga4").map((call) => call.id)).toEqual([calls[0]?.id]);
    expect(ledger.pendingCalls("meta").map((call) => call.id)).toEqual([calls[1]?.id]);
    ledger.close();
  });

  it("writes nothing for an empty batch of calls", () => {
    const ledger = createLedger();
    expect(ledger.recordCalls([])).toEqual([]);
    expect(ledger.bytes()).toBe(0);
    ledger.close();
  });

  it("sums what a destination is owed, with its oldest event", () => {
    const ledger = createLedger();
    ledger.recordCalls([
      { ...ga4Call(1, undefined, NOW - 5000), events: 25 },
      { ...ga4Call(2, undefined, NOW - 9000), events: 3 },
      metaCall("lead-1", NOW - 60_000),
    ]);
    expect(ledger.pendingSummary("ga4")).toEqual({
      calls: 2,
      events: 28,
      oldestAt: NOW - 9000,
      browserCalls: 0,
    });
    expect(ledger.pendingSummary("meta")).toEqual({
      calls: 1,
      events: 1,
      oldestAt: NOW - 60_000,
      browserCalls: 0,
    });
    ledger.close();
    expect(createLedger().pendingSummary("ga4")).toEqual({
      calls: 0,
      events: 0,
      oldestAt: null,
      browserCalls: 0,
    });
  });

  it("settle takes a call out, whatever became of it", () => {
    const ledger = createLedger();
    const calls = ledger.recordCalls([ga4Call(1), ga4Call(2), ga4Call(3), ga4Call(4)]);
    const outcomes = ["delivered", "refused", "unconfirmed", "given_up"] as const;
    for (const [index, outcome] of outcomes.entries())
      ledger.settle(calls[index]?.id ?? "", outcome);
    expect(ledger.pendingCalls("ga4")).toEqual([]);
    expect(ledger.pendingSummary("ga4").calls).toBe(0);
    ledger.close();
  });

  it("retryLater sets the call's next attempt, due time and uncertain count", () => {
    const ledger = createLedger();
    const [call] = ledger.recordCalls([ga4Call(1)]);
    ledger.retryLater(call?.id ?? "", 3, NOW + 4000, 1);
    expect(ledger.pendingCalls("ga4")[0]).toMatchObject({
      attempt: 3,
      dueAt: NOW + 4000,
      uncertain: 1,
    });
    ledger.close();
  });
});

describe("adoptLead", () => {
  it("keeps a lead another replica counted, once, without counting it here", () => {
    const ledger = createLedger();
    ledger.adoptLead(lead());
    expect(ledger.leadByRef("DRB-7K2QX")?.id).toBe("lead-1");
    const bytes = ledger.bytes();
    ledger.adoptLead(lead({ cta: "email" }));
    expect(ledger.bytes()).toBe(bytes);
    expect(ledger.lead("lead-1")?.cta).toBe("whatsapp");
    expect(ledger.counted().leads).toEqual({});
    expect(ledger.pendingSummary("ga4").calls).toBe(0);
    ledger.close();
  });

  it("leaves a lead this ledger already has as it is, chat and all", () => {
    const ledger = createLedger();
    ledger.recordLead(lead(), []);
    ledger.recordChat(chat(), []);
    ledger.adoptLead(lead());
    expect(ledger.lead("lead-1")?.status).toBe("chat_started");
    ledger.close();
  });
});

describe("recordChat", () => {
  it("marks its own lead chat_started, at the chat's time, and no other lead", () => {
    const ledger = createLedger();
    ledger.recordLead(lead(), []);
    ledger.recordLead(lead({ id: "lead-2", ref: "DRB-33333" }), []);
    ledger.recordChat(chat(), []);
    expect(ledger.lead("lead-1")).toMatchObject({ status: "chat_started", chatAt: NOW + 60_000 });
    expect(ledger.lead("lead-2")?.status).toBe("new");
    expect(ledger.lead("lead-2")).not.toHaveProperty("chatAt");
    expect(ledger.chatSeen("wamid.1")).toBe(true);
    expect(ledger.chatSeen("wamid.2")).toBe(false);
    ledger.close();
  });

  it("keeps the first chat's time when the lead writes again", () => {
    const ledger = createLedger();
    ledger.recordLead(lead(), []);
    ledger.recordChat(chat(), []);
    ledger.recordChat(chat({ messageId: "wamid.2", at: NOW + 3_600_000 }), []);
    expect(ledger.lead("lead-1")?.chatAt).toBe(NOW + 60_000);
    expect(ledger.chats().map((each) => each.messageId)).toEqual(["wamid.1", "wamid.2"]);
    ledger.close();
  });

  it("keeps a chat without a lead, and changes no lead for it", () => {
    const ledger = createLedger();
    ledger.recordLead(lead(), []);
    const calls = ledger.recordChat(chat({ lead: null, ctwaClid: "ARAkLkA" }), [metaCall("x")]);
    expect(calls).toHaveLength(1);
    expect(ledger.lead("lead-1")?.status).toBe("new");
    expect(ledger.chatSeen("wamid.1")).toBe(true);
    expect(ledger.pendingCalls("meta")).toHaveLength(1);
    expect(ledger.counted()).toMatchObject({ chatsMatched: 0, chatsUnmatched: 1 });
    ledger.close();
  });

  it("counts leads by cta and chats matched or not since start", () => {
    const ledger = createLedger();
    ledger.recordLead(lead(), []);
    ledger.recordLead(lead({ id: "lead-2", cta: "email", ref: undefined }), []);
    ledger.recordLead(lead({ id: "lead-3", cta: "email", ref: undefined }), []);
    ledger.recordChat(chat(), []);
    expect(ledger.counted()).toEqual({
      leads: { whatsapp: 1, email: 2 },
      chatsMatched: 1,
      chatsUnmatched: 0,
      stages: {},
    });
    ledger.close();
  });

  it("keeps what a lead's first chat tells of it: the ad's click, the account, the phone's hashes", () => {
    const ledger = createLedger();
    ledger.recordLead(lead(), []);
    ledger.recordChat(chat({ ctwaClid: "ARAkLkA", account: "102290129340398" }), [], PHONE);
    expect(ledger.lead("lead-1")).toEqual({
      ...lead(),
      status: "chat_started",
      chatAt: NOW + 60_000,
      ctwaClid: "ARAkLkA",
      account: "102290129340398",
      phone: PHONE,
    });
    // A later chat changes none of it.
    const other = { e164: sha256("+971509999999"), digits: sha256("971509999999") };
    ledger.recordChat(chat({ messageId: "wamid.2", ctwaClid: "other" }), [], other);
    expect(ledger.lead("lead-1")).toMatchObject({ ctwaClid: "ARAkLkA", phone: PHONE });
    ledger.close();
  });

  it("adds nothing a chat did not bring", () => {
    const ledger = createLedger();
    ledger.recordLead(lead(), []);
    ledger.recordChat(chat(), []);
    expect(ledger.lead("lead-1")).toEqual({
      ...lead(),
      status: "chat_started",
      chatAt: NOW + 60_000,
    });
    ledger.close();
  });
});

describe("recordLinkSent", () => {
  it("marks the lead's link sent at its first delivery only, kept across a restart and a rewrite", () => {
    const first = onFile();
    first.recordLead(lead({ os: "android" }), []);
    first.recordChat(chat(), [], PHONE);
    first.recordLinkSent("lead-1", NOW + 5000, []);
    first.recordLinkSent("lead-1", NOW + 9000, []);
    expect(first.lead("lead-1")).toMatchObject({ os: "android", linkSentAt: NOW + 5000 });
    stop(first);
    const second = onFile();
    expect(second.lead("lead-1")).toMatchObject({ os: "android", linkSentAt: NOW + 5000 });
    second.sweep();
    stop(second);
    expect(onFile().lead("lead-1")).toMatchObject({ linkSentAt: NOW + 5000 });
  });

  it("believes no link-sent line without its lead or time, and no lead with an unknown phone system", () => {
    const first = onFile();
    first.recordLead(lead(), []);
    stop(first);
    writeFileSync(
      path(),
      `${readFileSync(path(), "utf8")}${JSON.stringify({ t: "link", id: "lead-1" })}\n${JSON.stringify({ t: "lead", lead: { ...lead({ id: "lead-2" }), os: "symbian" } })}\n`,
    );
    const second = onFile();
    expect(second.lead("lead-1")).not.toHaveProperty("linkSentAt");
    expect(second.lead("lead-2")).toBeUndefined();
  });
});

describe("recordStage", () => {
  it("keeps each stage with its time and value, and the calls that report it, counted", () => {
    const ledger = createLedger();
    ledger.recordLead(lead(), []);
    ledger.recordChat(chat(), [], PHONE);
    const calls = ledger.recordStage("lead-1", "qualified", NOW + DAY, 40, [
      stageCall("lead-1", "qualified", NOW + DAY),
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ destination: "tiktok", attempt: 0, lead: "lead-1" });
    expect(ledger.pendingCalls("tiktok").map((call) => call.id)).toEqual([calls[0]?.id]);
    expect(ledger.lead("lead-1")).toMatchObject({
      status: "chat_started",
      stages: { qualified: { at: NOW + DAY, value: 40 } },
      // Qualified is not the last stage: a later one still needs the phone.
      phone: PHONE,
    });
    ledger.recordStage("lead-1", "installed", NOW + 2 * DAY, 150, []);
    expect(ledger.lead("lead-1")?.stages).toEqual({
      qualified: { at: NOW + DAY, value: 40 },
      installed: { at: NOW + 2 * DAY, value: 150 },
    });
    expect(ledger.counted().stages).toEqual({ qualified: 1, installed: 1 });
    ledger.close();
  });

  it.each(["installed", "lost"] as const)(
    "drops the phone's hashes at the lead's last stage (%s), in memory and from the file",
    (stage) => {
      const first = onFile();
      first.recordLead(lead(), []);
      first.recordChat(chat(), [], PHONE);
      first.recordStage("lead-1", stage, NOW + DAY, 0, []);
      expect(first.lead("lead-1")).not.toHaveProperty("phone");
      expect(first.lead("lead-1")?.stages).toEqual({ [stage]: { at: NOW + DAY, value: 0 } });
      first.sweep();
      expect(readFileSync(path(), "utf8")).not.toContain(PHONE.e164);
      expect(readFileSync(path(), "utf8")).not.toContain(PHONE.digits);
      stop(first);
      const second = onFile();
      expect(second.lead("lead-1")).not.toHaveProperty("phone");
      expect(second.lead("lead-1")?.stages).toEqual({ [stage]: { at: NOW + DAY, value: 0 } });
    },
  );

  it("keeps no phone from a chat that comes after the lead's last stage", () => {
    const first = onFile();
    first.recordLead(lead(), []);
    first.recordStage("lead-1", "lost", NOW + DAY, 0, []);
    first.recordChat(chat({ at: NOW + 2 * DAY }), [], PHONE);
    expect(first.lead("lead-1")?.status).toBe("chat_started");
    expect(first.lead("lead-1")).not.toHaveProperty("phone");
    stop(first);
    expect(onFile().lead("lead-1")).not.toHaveProperty("phone");
  });

  it("leadAfterStage: the stage added, the phone kept until the last stage", () => {
    const withPhone = { ...lead(), phone: PHONE };
    expect(leadAfterStage(withPhone, "qualified", NOW, 40)).toEqual({
      ...withPhone,
      stages: { qualified: { at: NOW, value: 40 } },
    });
    const installed = leadAfterStage(
      leadAfterStage(withPhone, "qualified", NOW, 40),
      "installed",
      NOW + 1,
      150,
    );
    expect(installed).toEqual({
      ...lead(),
      stages: { qualified: { at: NOW, value: 40 }, installed: { at: NOW + 1, value: 150 } },
    });
    expect(leadAfterStage(withPhone, "lost", NOW, 0)).not.toHaveProperty("phone");
    // The lead given is left as it was.
    expect(withPhone).toEqual({ ...lead(), phone: PHONE });
  });
});

describe("replay", () => {
  it("rebuilds leads, references, chats and what is owed, retries included", () => {
    const first = onFile();
    const [gaLead, metaLead] = first.recordLead(lead(), [ga4Call(1, "lead-1"), metaCall("lead-1")]);
    const [batch, settled] = first.recordCalls([ga4Call(2), ga4Call(3)]);
    first.recordLead(lead({ id: "lead-2", cta: "email", ref: undefined }), []);
    first.recordChat(chat(), []);
    first.retryLater(metaLead?.id ?? "", 2, NOW + 2000, 0);
    first.settle(settled?.id ?? "", "delivered");
    const leads = first.leads();
    stop(first);

    const second = onFile();
    expect(second.leads()).toEqual(leads);
    expect(second.lead("lead-1")).toMatchObject({ status: "chat_started", chatAt: NOW + 60_000 });
    expect(second.leadByRef("DRB-7K2QX")?.id).toBe("lead-1");
    expect(second.refTaken("DRB-7K2QX")).toBe(true);
    expect(second.chatSeen("wamid.1")).toBe(true);
    expect(
      second
        .pendingCalls("ga4")
        .map((call) => call.id)
        .sort(),
    ).toEqual([gaLead?.id, batch?.id].sort());
    expect(second.pendingCalls("ga4").find((call) => call.id === gaLead?.id)).toEqual(gaLead);
    expect(second.pendingCalls("meta")).toEqual([
      { ...metaLead, attempt: 2, dueAt: NOW + 2000, uncertain: 0 },
    ]);
    for (const call of [...second.pendingCalls("ga4"), ...second.pendingCalls("meta")])
      expect(call.interrupted).toBeUndefined();
  });

  it("rebuilds what a lead's chat and stages told of it, and the stages' calls still owed", () => {
    const first = onFile();
    first.recordLead(lead(), []);
    first.recordLead(lead({ id: "lead-2", ref: "DRB-33333" }), []);
    first.recordChat(chat({ ctwaClid: "ARAkLkA", account: "111" }), [], PHONE);
    first.recordChat(chat({ messageId: "wamid.2", lead: "lead-2" }), [], PHONE);
    const [owed] = first.recordStage("lead-1", "qualified", NOW + DAY, 40, [
      stageCall("lead-1", "qualified"),
    ]);
    const [sent] = first.recordStage("lead-2", "installed", NOW + DAY, 150, [
      stageCall("lead-2", "installed"),
    ]);
    first.settle(sent?.id ?? "", "delivered");
    const leads = first.leads();
    stop(first);

    const second = onFile();
    expect(second.leads()).toEqual(leads);
    expect(second.lead("lead-1")).toMatchObject({
      ctwaClid: "ARAkLkA",
      account: "111",
      phone: PHONE,
      stages: { qualified: { at: NOW + DAY, value: 40 } },
    });
    expect(second.lead("lead-2")).not.toHaveProperty("phone");
    expect(second.lead("lead-2")?.stages).toEqual({ installed: { at: NOW + DAY, value: 150 } });
    expect(second.pendingCalls("tiktok")).toEqual([owed]);
    // Counted since this process started: none yet.
    expect(second.counted().stages).toEqual({});
  });

  it("brings back a call written as sent with no result as interrupted, and no other", () => {
    const first = onFile();
    const [out, answered, retried, waiting] = first.recordCalls([
      ga4Call(1),
      ga4Call(2),
      ga4Call(3),
      ga4Call(4),
    ]);
    first.sending(out?.id ?? "");
    first.sending(answered?.id ?? "");
    first.settle(answered?.id ?? "", "delivered");
    first.sending(retried?.id ?? "");
    first.retryLater(retried?.id ?? "", 1, NOW + 1000, 0);
    // The process dies here, with `out` sent and unanswered.
    stop(first);

    const second = onFile();
    const byId = new Map(second.pendingCalls("ga4").map((call) => [call.id, call]));
    expect([...byId.keys()].sort()).toEqual([out?.id, retried?.id, waiting?.id].sort());
    expect(byId.get(out?.id ?? "")?.interrupted).toBe(true);
    expect(byId.get(retried?.id ?? "")?.interrupted).toBeUndefined();
    expect(byId.get(waiting?.id ?? "")?.interrupted).toBeUndefined();
  });

  it("keeps a call interrupted until an outbox deals with it, across another restart", () => {
    const first = onFile();
    const [out] = first.recordCalls([ga4Call(1)]);
    first.sending(out?.id ?? "");
    stop(first);
    // Started, and stopped again before GA4's outbox ran (or with GA4 not configured).
    const second = onFile();
    expect(second.pendingCalls("ga4")[0]?.interrupted).toBe(true);
    stop(second);
    expect(onFile().pendingCalls("ga4")[0]?.interrupted).toBe(true);
  });

  it("rewrites the file at start without what was settled, addresses included", () => {
    const first = onFile();
    const [meta] = first.recordLead(lead(), [metaCall("lead-1")]);
    first.settle(meta?.id ?? "", "delivered");
    stop(first);
    expect(readFileSync(path(), "utf8")).toContain(ADDRESS);

    const second = onFile();
    const text = readFileSync(path(), "utf8");
    expect(text).not.toContain(ADDRESS);
    expect(text).toContain("lead-1");
    expect(second.bytes()).toBe(Buffer.byteLength(text));
    expect(second.pendingCalls("meta")).toEqual([]);
    expect(second.lead("lead-1")).toEqual(lead());
  });

  it("skips a torn last line and keeps going", () => {
    const first = onFile();
    first.recordLead(lead(), []);
    stop(first);
    writeFileSync(path(), `${readFileSync(path(), "utf8")}{"t":"lead","lead":{"id":"lea`);
    const second = onFile();
    expect(second.leads().map((each) => each.id)).toEqual(["lead-1"]);
    second.recordLead(lead({ id: "lead-2", ref: "DRB-33333" }), []);
    stop(second);
    expect(
      onFile()
        .leads()
        .map((each) => each.id),
    ).toEqual(["lead-1", "lead-2"]);
  });
});

describe("reading any ledger at start", () => {
  const lines = (...entries: unknown[]) => entries.map((entry) => JSON.stringify(entry)).join("\n");

  it("skips each line of the wrong shape, saying which and why, and keeps the rest", () => {
    const logged: Array<Record<string, unknown>> = [];
    const good = lead();
    writeFileSync(
      path(),
      `${lines(
        null,
        { t: "lead", lead: null },
        { t: "lead", lead: { ...good, id: "lead-x", at: "yesterday" } },
        { t: "lead", lead: good },
        { t: "status" },
        { t: "mystery", id: "1" },
        {
          t: "calls",
          calls: [{ id: "c-1" }, { ...ga4Call(1), id: "c-2", attempt: 0, dueAt: 0, uncertain: 0 }],
        },
        [1, 2],
      )}\n{"t":"lead","lead":{"id":"lea\n`,
    );
    const ledger = onFile({ log: (line) => logged.push(JSON.parse(line)) });
    expect(ledger.leads().map((each) => each.id)).toEqual(["lead-1"]);
    expect(ledger.pendingCalls("ga4").map((call) => call.id)).toEqual(["c-2"]);
    expect(logged).toEqual([
      { type: "ledger_line_skipped", line: 1, reason: "not an entry (an object with a type)" },
      { type: "ledger_line_skipped", line: 2, reason: "its lead is not an object" },
      { type: "ledger_line_skipped", line: 3, reason: "its lead has no time" },
      { type: "ledger_line_skipped", line: 5, reason: "a status without its lead or time" },
      { type: "ledger_line_skipped", line: 6, reason: 'an unknown entry type "mystery"' },
      { type: "ledger_line_skipped", line: 7, reason: "call 1 skipped: no destination" },
      { type: "ledger_line_skipped", line: 8, reason: "not an entry (an object with a type)" },
      { type: "ledger_line_skipped", line: 9, reason: expect.stringContaining("not JSON") },
    ]);
    expect(ledger.state().skippedAtStart).toBe(8);
  });

  it("skips a stage or status line it cannot believe, and keeps the good ones", () => {
    const logged: Array<Record<string, unknown>> = [];
    const at = NOW + DAY;
    const call = {
      ...stageCall("lead-1", "qualified"),
      id: "c-s",
      attempt: 0,
      dueAt: 0,
      uncertain: 0,
    };
    writeFileSync(
      path(),
      `${lines(
        { t: "lead", lead: lead() },
        { t: "stage", id: "lead-1", stage: "bought", at, value: 1 },
        { t: "stage", id: "lead-1", stage: "installed", at, value: "150" },
        { t: "stage", id: "lead-1", stage: "installed", value: 150 },
        { t: "stage", stage: "installed", at, value: 150 },
        { t: "stage", id: "lead-1", stage: "lost", at, value: 0, calls: "none" },
        { t: "status", id: "lead-1", status: "chat_started", at, phone: { e164: "+971501234567" } },
        { t: "lead", lead: { ...lead({ id: "lead-p", ref: "DRB-44444" }), phone: "971501234567" } },
        {
          t: "status",
          id: "lead-1",
          status: "chat_started",
          at,
          ctwaClid: "ARAkLkA",
          phone: PHONE,
        },
        { t: "stage", id: "lead-1", stage: "qualified", at, value: 40, calls: [call] },
      )}\n`,
    );
    const ledger = onFile({ log: (line) => logged.push(JSON.parse(line)) });
    expect(logged).toEqual([
      { type: "ledger_line_skipped", line: 2, reason: "an unknown stage" },
      { type: "ledger_line_skipped", line: 3, reason: "a stage without its value" },
      { type: "ledger_line_skipped", line: 4, reason: "a stage without its lead or time" },
      { type: "ledger_line_skipped", line: 5, reason: "a stage without its lead or time" },
      { type: "ledger_line_skipped", line: 6, reason: "its calls are not a list" },
      { type: "ledger_line_skipped", line: 7, reason: "a status whose phone is not two hashes" },
      { type: "ledger_line_skipped", line: 8, reason: "its lead's phone is not two hashes" },
    ]);
    expect(ledger.leads().map((each) => each.id)).toEqual(["lead-1"]);
    expect(ledger.lead("lead-1")).toEqual({
      ...lead(),
      status: "chat_started",
      chatAt: at,
      ctwaClid: "ARAkLkA",
      phone: PHONE,
      stages: { qualified: { at, value: 40 } },
    });
    expect(ledger.pendingCalls("tiktok")).toEqual([call]);
    // No raw number, in any form, survives the rewrite at start.
    expect(readFileSync(path(), "utf8")).not.toContain("971501234567");
  });

  it("never lets a lead's stages or chat facts of the wrong shape through", () => {
    writeFileSync(
      path(),
      `${lines(
        { t: "lead", lead: { ...lead(), stages: { installed: { at: NOW, value: "lots" } } } },
        {
          t: "lead",
          lead: {
            ...lead({ id: "lead-2", ref: "DRB-33333" }),
            stages: { bought: { at: NOW, value: 1 } },
          },
        },
        { t: "lead", lead: lead({ id: "lead-3", ref: "DRB-44444" }) },
        {
          t: "status",
          id: "lead-3",
          status: "chat_started",
          at: NOW,
          ctwaClid: { x: 1 },
          account: 7,
        },
      )}\n`,
    );
    const ledger = onFile();
    for (const each of ledger.leads()) {
      for (const [stage, told] of Object.entries(each.stages ?? {})) {
        expect(["qualified", "installed", "lost"]).toContain(stage);
        expect(typeof told?.at).toBe("number");
        expect(typeof told?.value).toBe("number");
      }
      expect(["undefined", "string"]).toContain(typeof each.ctwaClid);
      expect(["undefined", "string"]).toContain(typeof each.account);
    }
  });

  it("skips a chat whose ad is not an ad's id, type and headline, and keeps a good one", () => {
    const logged: Array<Record<string, unknown>> = [];
    const chat = (messageId: string, referral: unknown) => ({
      t: "chat",
      chat: { messageId, at: NOW, lead: null, ctwaClid: "ARAkLkA", referral },
    });
    const good = { sourceId: "120226305854810726", sourceType: "ad", headline: "Chat with us" };
    writeFileSync(
      path(),
      `${lines(
        chat("wamid.good", good),
        chat("wamid.post", { sourceId: "615533673545722_10160", sourceType: "post" }),
        chat("wamid.long-id", { ...good, sourceId: "1".repeat(41) }),
        chat("wamid.not-id", { ...good, sourceId: "<script>" }),
        chat("wamid.no-id", { headline: "Chat with us" }),
        chat("wamid.type", { ...good, sourceType: "story" }),
        chat("wamid.long", { ...good, headline: "x".repeat(101) }),
        chat("wamid.bidi", { ...good, headline: "Chat \u202ewith us" }),
        chat("wamid.control", { ...good, headline: "Chat\u001b[2J" }),
        chat("wamid.text", "120226305854810726"),
      )}\n`,
    );
    const ledger = onFile({ log: (line) => logged.push(JSON.parse(line)) });
    expect(ledger.chats().map((each) => [each.messageId, each.referral])).toEqual([
      ["wamid.good", good],
      ["wamid.post", { sourceId: "615533673545722_10160", sourceType: "post" }],
    ]);
    const reason = "its chat's ad is not an ad's id, type and headline";
    expect(logged).toEqual(
      [3, 4, 5, 6, 7, 8, 9, 10].map((line) => ({ type: "ledger_line_skipped", line, reason })),
    );
  });

  it("skips a chat whose ad's click id or account is not text", () => {
    const logged: Array<Record<string, unknown>> = [];
    const chat = (messageId: string, fields: Record<string, unknown>) => ({
      t: "chat",
      chat: { messageId, at: NOW, lead: null, ...fields },
    });
    writeFileSync(
      path(),
      `${lines(
        chat("wamid.good", { ctwaClid: "ARAkLkA", account: "102290129340398" }),
        chat("wamid.clid", { ctwaClid: { x: 1 } }),
        chat("wamid.account", { account: 7 }),
      )}\n`,
    );
    const ledger = onFile({ log: (line) => logged.push(JSON.parse(line)) });
    expect(ledger.chats().map((each) => each.messageId)).toEqual(["wamid.good"]);
    const reason = "its chat's click id or account is not text";
    expect(logged).toEqual([2, 3].map((line) => ({ type: "ledger_line_skipped", line, reason })));
  });

  it("keeps a lead's variant, set-aside and placement only in their own shapes", () => {
    const logged: Array<Record<string, unknown>> = [];
    const credited = lead({
      id: "lead-c",
      ref: "DRB-22222",
      placement: "plan-pro",
      experiment: { id: "hero_headline", variant: "cashback_first" },
    });
    const setAside = lead({
      id: "lead-s",
      ref: "DRB-33333",
      placement: "sticky",
      experimentSetAside: { experiment: "hero_headline", reason: "no_variant" },
    });
    writeFileSync(
      path(),
      `${lines(
        credited,
        setAside,
        lead({ id: "x-1", experiment: { id: "hero headline", variant: "control" } as never }),
        lead({ id: "x-2", experiment: "DRB-hero_headline-control" as never }),
        lead({
          id: "x-3",
          experimentSetAside: { experiment: "hero_headline", reason: "bored" } as never,
        }),
        lead({ id: "x-4", experimentSetAside: { reason: "no_variant" } as never }),
        lead({
          id: "x-5",
          experiment: { id: "hero_headline", variant: "control" },
          experimentSetAside: { experiment: "hero_headline", reason: "unknown_variant" },
        }),
        lead({ id: "x-6", placement: "p".repeat(41) }),
      )
        .split("\n")
        .map((line) => `{"t":"lead","lead":${line}}`)
        .join("\n")}\n`,
    );
    const ledger = onFile({ log: (line) => logged.push(JSON.parse(line)) });
    expect(ledger.leads()).toEqual([credited, setAside]);
    expect(logged.map((line) => line.reason)).toEqual([
      "its lead's variant is not an experiment's",
      "its lead's variant is not an experiment's",
      "its lead's set-aside is not an experiment with a known reason",
      "its lead's set-aside is not an experiment with a known reason",
      "its lead is both credited to a variant and set aside",
      "its lead's browser id or placement is not text",
    ]);
  });

  it("keeps a call for a destination this build does not know, across a rewrite", () => {
    const call = {
      ...ga4Call(1),
      destination: "pinterest",
      id: "c-later",
      attempt: 0,
      dueAt: 0,
      uncertain: 0,
    };
    writeFileSync(path(), `${lines({ t: "calls", calls: [call] })}\n`);
    const ledger = onFile();
    expect(ledger.pendingCalls("pinterest")).toEqual([call]);
    stop(ledger);
    expect(onFile().pendingCalls("pinterest")).toEqual([call]);
  });

  it("rewrites an older build's calls without their credentials, and keeps them owed", () => {
    const old = {
      ...ga4Call(1, "lead-1"),
      url: `${GA_URL}&api_secret=ga-secret-value`,
      id: "c-ga",
      attempt: 0,
      dueAt: 0,
      uncertain: 0,
    };
    const meta = {
      ...metaCall("lead-1"),
      body: JSON.stringify({
        data: [{ event_id: "lead-1" }],
        access_token: "EAAB-meta-token-value",
      }),
      id: "c-meta",
      attempt: 0,
      dueAt: 0,
      uncertain: 0,
    };
    writeFileSync(path(), `${lines({ t: "lead", lead: lead(), calls: [old, meta] })}\n`);
    const ledger = onFile();
    const text = readFileSync(path(), "utf8");
    expect(text).not.toContain("ga-secret-value");
    expect(text).not.toContain("EAAB-meta-token-value");
    expect(ledger.pendingCalls("ga4")[0]?.url).toBe(GA_URL);
    expect(JSON.parse(ledger.pendingCalls("meta")[0]?.body ?? "")).toEqual({
      data: [{ event_id: "lead-1" }],
    });
  });

  it("writes what is owed a bounded number of calls to a line, and what is out as interrupted", () => {
    const ledger = onFile();
    const calls = ledger.recordCalls(
      Array.from({ length: CALLS_PER_LINE * 2 + 5 }, (_, n) => ga4Call(n)),
    );
    ledger.sending(calls[3]?.id ?? "");
    ledger.sweep();
    const written = readFileSync(path(), "utf8").split("\n").filter(Boolean);
    expect(written.map((line) => JSON.parse(line).calls.length)).toEqual([
      CALLS_PER_LINE,
      CALLS_PER_LINE,
      5,
    ]);
    stop(ledger);
    const again = onFile();
    expect(
      again
        .pendingCalls("ga4")
        .filter((call) => call.interrupted)
        .map((c) => c.id),
    ).toEqual([calls[3]?.id]);
  });
});

describe("a disk that refuses the ledger's writes", () => {
  it("answers every caller, keeps the lead in memory, and writes it once the disk is back", async () => {
    const logged: string[] = [];
    let refuse = false;
    const file = path();
    const realWrite = fsModule.writeSync;
    const ledger = createLedger({
      journal: fileJournal<LedgerEntry>(file, {
        retryEveryMs: 20,
        log: (line) => logged.push(line),
        fs: {
          ...fsModule,
          writeSync: ((...args: Parameters<typeof realWrite>) => {
            if (refuse) throw Object.assign(new Error("ENOSPC"), { code: "ENOSPC" });
            return realWrite(...args);
          }) as typeof realWrite,
        },
      }),
      replay: (onLine, onBad) => replayJournal(file, onLine, onBad),
      now: () => NOW,
    });
    opened.push(ledger);
    refuse = true;
    expect(() => ledger.recordLead(lead(), [ga4Call(1, "lead-1")])).not.toThrow();
    expect(ledger.lead("lead-1")).toEqual(lead());
    expect(ledger.state()).toMatchObject({ failing: "ENOSPC", held: 1 });
    refuse = false;
    await vi.waitFor(() => expect(ledger.state().failing).toBeNull());
    stop(ledger);
    expect(onFile().lead("lead-1")).toEqual(lead());
    expect(logged.map((line) => JSON.parse(line).type)).toEqual([
      "ledger_failing",
      "ledger_recovered",
    ]);
  });
});

describe("sweep", () => {
  it("drops leads, chats and calls older than the retention, with their references", () => {
    let now = NOW;
    const ledger = onFile({ retentionDays: 2, now: () => now });
    ledger.recordLead(lead({ id: "old", ref: "DRB-22222", at: NOW - 3 * DAY }), [
      ga4Call(1, "old", NOW - 3 * DAY),
    ]);
    ledger.recordLead(lead({ id: "recent", ref: "DRB-33333", at: NOW - DAY }), []);
    ledger.recordChat(chat({ messageId: "wamid.old", lead: "old", at: NOW - 3 * DAY }), []);
    ledger.recordChat(chat({ messageId: "wamid.new", lead: "recent", at: NOW - DAY }), []);
    ledger.sweep();
    expect(ledger.lead("old")).toBeUndefined();
    expect(ledger.leadByRef("DRB-22222")).toBeUndefined();
    expect(ledger.refTaken("DRB-22222")).toBe(false);
    expect(ledger.chatSeen("wamid.old")).toBe(false);
    expect(ledger.lead("recent")?.status).toBe("chat_started");
    expect(ledger.chatSeen("wamid.new")).toBe(true);
    // A call no outbox took in all that time goes with its lead (an outbox gives up long before).
    expect(ledger.pendingCalls("ga4")).toHaveLength(0);
    // A day on, the recent one is past the retention too.
    now += 1.5 * DAY;
    ledger.sweep();
    expect(ledger.leads()).toEqual([]);
    stop(ledger);

    const reopened = onFile({ retentionDays: 2, now: () => now });
    expect(reopened.leads()).toEqual([]);
    expect(reopened.chats()).toEqual([]);
    expect(reopened.pendingCalls("ga4")).toHaveLength(0);
    expect(readFileSync(path(), "utf8")).not.toContain("wamid");
  });

  it("drops old leads when a ledger opens, too", () => {
    const first = onFile({ retentionDays: 90, now: () => NOW });
    first.recordLead(lead({ id: "old", at: NOW - 91 * DAY }), []);
    first.recordLead(lead({ id: "kept", ref: "DRB-33333", at: NOW - 89 * DAY }), []);
    stop(first);
    const second = onFile({ retentionDays: 90, now: () => NOW });
    expect(second.leads().map((each) => each.id)).toEqual(["kept"]);
  });

  it("filters leads and chats by time", () => {
    const ledger = createLedger({ now: () => NOW });
    ledger.recordLead(lead({ id: "a", at: NOW - 2000 }), []);
    ledger.recordLead(lead({ id: "b", ref: "DRB-33333", at: NOW - 1000 }), []);
    ledger.recordChat(chat({ at: NOW - 500 }), []);
    expect(ledger.leads(NOW - 1500).map((each) => each.id)).toEqual(["b"]);
    expect(ledger.chats(NOW - 400)).toEqual([]);
    expect(ledger.chats(NOW - 500)).toHaveLength(1);
    ledger.close();
  });

  it("rewrites every hour (old leads go even when nothing settled), until closed", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const journal = countingJournal();
    const ledger = createLedger({ journal });
    ledger.recordCalls([ga4Call(1)]);
    vi.advanceTimersByTime(SWEEP_EVERY_MS - 1);
    expect(journal.rewrites).toBe(0);
    vi.advanceTimersByTime(1);
    expect(journal.rewrites).toBe(1);
    vi.advanceTimersByTime(SWEEP_EVERY_MS);
    expect(journal.rewrites).toBe(2);
    ledger.close();
    vi.advanceTimersByTime(SWEEP_EVERY_MS);
    // Closed: the timer is gone.
    expect(journal.rewrites).toBe(2);
  });

  it("rewrites sooner once settled calls fill the file past the limit", () => {
    const journal = countingJournal();
    const ledger = createLedger({ journal });
    const [first, second] = ledger.recordCalls([ga4Call(1), ga4Call(2)]);
    journal.size = REWRITE_AFTER_BYTES;
    ledger.settle(first?.id ?? "", "delivered");
    expect(journal.rewrites).toBe(0);
    journal.size = REWRITE_AFTER_BYTES + 1;
    ledger.settle(second?.id ?? "", "delivered");
    expect(journal.rewrites).toBe(1);
    ledger.close();
  });
});

/** A journal that only counts: its size is set by the test. */
function countingJournal() {
  const journal: Journal<LedgerEntry> & { size: number; rewrites: number } = {
    size: 0,
    rewrites: 0,
    append: () => {},
    rewrite: (entries) => {
      journal.rewrites += 1;
      journal.size = [...entries].length;
      return true;
    },
    bytes: () => journal.size,
    state: () => ({ failing: null, failingSince: null, held: 0 }),
    close: () => {},
  };
  return journal;
}

describe("openLedger", () => {
  const lockPath = () => join(dir, "leads.lock");
  const ours = () => `${hostname()} ${process.pid}`;

  function open(): Ledger {
    const ledger = openLedger(dir, 90);
    opened.push(ledger);
    return ledger;
  }

  function openError(): ConfigError {
    try {
      open();
    } catch (caught) {
      expect(caught).toBeInstanceOf(ConfigError);
      return caught as ConfigError;
    }
    throw new Error("openLedger did not refuse the directory");
  }

  /** Another process on this host, holding the lock as openLedger would; once it does. */
  async function otherWriter(): Promise<ChildProcess> {
    const script = `
      const fs = require("node:fs");
      const fd = fs.openSync(process.argv[1], "wx");
      fs.writeSync(fd, require("node:os").hostname() + " " + process.pid);
      fs.closeSync(fd);
      process.stdout.write("locked\\n");
      setTimeout(() => {}, 60_000);
    `;
    const child = spawn(process.execPath, ["-e", script, lockPath()], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout?.once("data", () => resolve());
      child.once("exit", (code) => reject(new Error(`the other writer exited (${code})`)));
    });
    return child;
  }

  /** Sets the lock's last heartbeat `ms` ago. */
  const age = (ms: number) => {
    const then = new Date(Date.now() - ms);
    utimesSync(lockPath(), then, then);
  };

  // openLedger keeps leads for 90 days of the machine's time.
  const recent = () => lead({ at: Date.now() });

  it("keeps the ledger in the directory across a restart, locked with its host and pid while open", () => {
    const ledger = open();
    expect(readFileSync(lockPath(), "utf8")).toBe(ours());
    const record = recent();
    ledger.recordLead(record, [ga4Call(1, "lead-1", Date.now())]);
    stop(ledger);
    expect(existsSync(lockPath())).toBe(false);
    expect(existsSync(path())).toBe(true);

    const again = open();
    expect(again.lead("lead-1")).toEqual(record);
    expect(again.pendingCalls("ga4")).toHaveLength(1);
  });

  it("refuses a directory another live process on this host writes, naming DATA_DIR", async () => {
    const other = await otherWriter();
    const error = openError();
    expect(error.variable).toBe("DATA_DIR");
    expect(error.message).toContain(`process ${other.pid}`);
    // The other process's lock is left alone.
    expect(readFileSync(lockPath(), "utf8")).toBe(`${hostname()} ${other.pid}`);
  });

  it("takes over a lock left by a process on this host that is gone", async () => {
    const other = await otherWriter();
    const exited = new Promise((resolve) => other.once("exit", resolve));
    other.kill();
    await exited;
    expect(readFileSync(lockPath(), "utf8")).toBe(`${hostname()} ${other.pid}`);

    const ledger = open();
    expect(readFileSync(lockPath(), "utf8")).toBe(ours());
    ledger.recordLead(recent(), []);
    expect(ledger.lead("lead-1")).toBeDefined();
  });

  /** Another container on the same volume, touching its lock as a live server's heartbeat does. */
  async function otherContainer(): Promise<ChildProcess> {
    writeFileSync(lockPath(), "other-container 1");
    const script = `
      const fs = require("node:fs");
      setInterval(() => { const now = new Date(); fs.utimesSync(process.argv[1], now, now); }, 100);
      process.stdout.write("beating\\n");
    `;
    const child = spawn(process.execPath, ["-e", script, lockPath()], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
    return child;
  }

  it("refuses a lock another host's live server keeps touching, naming it", async () => {
    // Its pid means nothing here, its heartbeat does.
    await otherContainer();
    const error = openError();
    expect(error.variable).toBe("DATA_DIR");
    expect(error.message).toContain('process 1 on "other-container"');
  });

  it("takes over a lock whose other host stopped touching it, within about a second", async () => {
    const other = await otherContainer();
    other.kill("SIGKILL");
    await new Promise((resolve) => other.once("exit", resolve));
    // Just written, by this machine's clock: it is watched, not trusted, then taken over.
    const started = performance.now();
    open();
    expect(performance.now() - started).toBeLessThan(2000 * 3);
    expect(readFileSync(lockPath(), "utf8")).toBe(ours());
  });

  it("takes over at once a lock from another host untouched for long", () => {
    writeFileSync(lockPath(), "old-container 1");
    age(60_000);
    open();
    expect(readFileSync(lockPath(), "utf8")).toBe(ours());
  });

  it("takes over a stale lock that names no one", () => {
    writeFileSync(lockPath(), "");
    age(60_000);
    open();
    expect(readFileSync(lockPath(), "utf8")).toBe(ours());
  });

  it("touches its lock from a thread of its own, even while this one is busy", async () => {
    open();
    age(60_000);
    // Busy for three heartbeats: no timer of this thread runs meanwhile.
    const until = Date.now() + 3 * LOCK_HEARTBEAT_MS;
    while (Date.now() < until) {
      // busy
    }
    await vi.waitFor(() => expect(Date.now() - statSync(lockPath()).mtimeMs).toBeLessThan(5000));
  });

  it("names the cause when DATA_DIR cannot be written", () => {
    // As root the mode is no obstacle: a read-only bind or file system is what production has.
    if (process.getuid?.() === 0) return;
    chmodSync(dir, 0o500);
    try {
      expect(() => openLedger(dir, 90)).toThrow(/^DATA_DIR cannot be written \(EACCES: /);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it("says DATA_DIR cannot be created when it is a file", () => {
    const file = join(dir, "not-a-dir");
    writeFileSync(file, "x");
    expect(() => openLedger(join(file, "data"), 90)).toThrow(ConfigError);
    expect(() => openLedger(join(file, "data"), 90)).toThrow(/^DATA_DIR cannot be created/);
  });

  it("readLedger reads what a running server wrote, without its lock and without writing", () => {
    const ledger = open();
    const record = recent();
    ledger.recordLead(record, [metaCall("lead-1")]);
    const before = readFileSync(path(), "utf8");
    const read = readLedger(dir);
    expect(read.lead("lead-1")).toEqual(record);
    expect(read.pendingCalls("meta")).toHaveLength(1);
    expect(readFileSync(path(), "utf8")).toBe(before);
    expect(readFileSync(lockPath(), "utf8")).toBe(ours());
  });
});
