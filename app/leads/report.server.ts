/**
 * Leads, chats and later stages by campaign and Dubai day, for the people who run the campaigns
 * (`npm run leads`): read from the ledger alone, so it needs no GA4 and shows what GA4 cannot,
 * which campaigns' leads became WhatsApp chats, then customers. Three kinds of row, so that no
 * sum mixes them: leads (a share is none), chats from a Click-to-WhatsApp ad with no site lead
 * (credited to their ad), and shares.
 */
import type { ChatRecord, LeadRecord } from "~/leads/ledger/ledger.server";
import type { Period } from "~/leads/report-period.server";
import { periodText } from "~/leads/report-period.server";
import { dubaiDay } from "~/leads/visitor.server";
import { campaignDetails } from "~/shared/campaign";

/** What a row counts: leads, chats an ad brought without a site lead, or shares. */
export type RowKind = "lead" | "ad chat" | "share";

/** The words a row is counted by, each "(none)" when the lead has none. */
type RowKey = {
  kind: RowKind;
  /** The Dubai day it happened on, YYYY-MM-DD. */
  day: string;
  source: string;
  medium: string;
  campaign: string;
  /** utm_content (the ad), utm_term (the keyword), as GA4's campaign_details names them. */
  content: string;
  term: string;
  cta: string;
  plan: string;
  /** The button the lead came from (hero, sticky bar, a plan…). */
  placement: string;
  language: string;
};

export type ReportRow = RowKey & {
  leads: number;
  chats: number;
  /** Leads whose chat WhatsApp took the automatic reply for, with the beta link ("link sent"). */
  linksSent: number;
  shares: number;
  /**
   * Leads the team marked qualified (api/leads/stage), or installed (which a lead becomes
   * qualified on the way to), whenever they did; installed and lost as marked.
   */
  qualified: number;
  installed: number;
  lost: number;
  /** What the installed ones were worth, in AED. */
  value: number;
};

export type Report = {
  period: Period;
  /** When it was read (ms): the end of a period that runs to now. */
  now: number;
  /** Leads first, then ad chats, then shares; each by day, then the most leads, chats, shares. */
  rows: ReportRow[];
  /** Chats that quoted no reference (or one no lead holds) and came from no ad. */
  chatsWithoutCampaign: number;
};

const NONE = "(none)";
/** A share (cta=link) is no lead, as GA4 and the docs have it. */
const SHARE_CTA = "link";
const KIND_ORDER: RowKind[] = ["lead", "ad chat", "share"];

const inPeriod = (at: number, { from, to }: Period) =>
  (from === null || at >= from) && (to === null || at < to);

function leadKey(lead: LeadRecord): RowKey {
  const details = campaignDetails(lead.campaign);
  return {
    kind: lead.cta === SHARE_CTA ? "share" : "lead",
    day: dubaiDay(new Date(lead.at)),
    source: details.source ?? NONE,
    medium: details.medium ?? NONE,
    campaign: details.campaign ?? NONE,
    content: details.content ?? NONE,
    term: details.term ?? NONE,
    cta: lead.cta,
    plan: lead.plan ?? NONE,
    placement: lead.placement ?? NONE,
    language: lead.language ?? NONE,
  };
}

/**
 * A chat from a Click-to-WhatsApp ad (or post) that named no lead, as its ad's row: the ad's
 * headline where a campaign goes, its id where an ad's utm_content goes.
 */
function adChatKey(chat: ChatRecord): RowKey {
  return {
    kind: "ad chat",
    day: dubaiDay(new Date(chat.at)),
    source: chat.referral?.sourceType === "post" ? "whatsapp post" : "whatsapp ad",
    medium: NONE,
    campaign: chat.referral?.headline ?? NONE,
    content: chat.referral?.sourceId ?? NONE,
    term: NONE,
    cta: "whatsapp",
    plan: NONE,
    placement: NONE,
    language: NONE,
  };
}

const fromAd = (chat: ChatRecord) => chat.referral !== undefined || chat.ctwaClid !== undefined;

export function leadReport(
  leads: LeadRecord[],
  chats: ChatRecord[],
  period: Period,
  now = Date.now(),
): Report {
  const rows = new Map<string, ReportRow>();
  const rowOf = (key: RowKey) => {
    const id = JSON.stringify(key);
    let row = rows.get(id);
    if (!row) {
      row = {
        ...key,
        leads: 0,
        chats: 0,
        linksSent: 0,
        shares: 0,
        qualified: 0,
        installed: 0,
        lost: 0,
        value: 0,
      };
      rows.set(id, row);
    }
    return row;
  };
  // A lead's chat counts with its lead, whenever it came: the day closed is the lead's.
  const chatted = new Set(chats.filter((chat) => chat.lead).map((chat) => chat.lead));
  for (const lead of leads) {
    if (!inPeriod(lead.at, period)) continue;
    const row = rowOf(leadKey(lead));
    if (row.kind === "share") {
      row.shares += 1;
      continue;
    }
    row.leads += 1;
    if (lead.status === "chat_started" || chatted.has(lead.id)) row.chats += 1;
    if (lead.linkSentAt !== undefined) row.linksSent += 1;
    const stages = lead.stages ?? {};
    if (stages.qualified || stages.installed) row.qualified += 1;
    if (stages.installed) {
      row.installed += 1;
      // In fils: 0.1 + 0.2 is 0.3, not 0.30000000000000004.
      row.value = Math.round((row.value + stages.installed.value) * 100) / 100;
    }
    if (stages.lost) row.lost += 1;
  }
  let chatsWithoutCampaign = 0;
  for (const chat of chats) {
    if (chat.lead || !inPeriod(chat.at, period)) continue;
    if (fromAd(chat)) rowOf(adChatKey(chat)).chats += 1;
    else chatsWithoutCampaign += 1;
  }
  const sorted = [...rows.values()].sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      a.day.localeCompare(b.day) ||
      b.leads - a.leads ||
      b.chats - a.chats ||
      b.shares - a.shares ||
      a.source.localeCompare(b.source) ||
      a.campaign.localeCompare(b.campaign),
  );
  return { period, now, rows: sorted, chatsWithoutCampaign };
}

const rate = (row: Pick<ReportRow, "leads" | "chats">) =>
  row.leads === 0 ? "" : `${Math.round((100 * row.chats) / row.leads)}%`;

/** The columns of the table and of the CSV, in order. */
export const COLUMNS = [
  "kind",
  "day",
  "source",
  "medium",
  "campaign",
  "content",
  "term",
  "cta",
  "plan",
  "placement",
  "language",
  "leads",
  "chats",
  "chat rate",
  "links sent",
  "shares",
  "qualified",
  "installed",
  "lost",
  "value AED",
];
/** Where the figures start: right-aligned in the table. */
const FIRST_FIGURE = COLUMNS.indexOf("leads");

function cells(row: ReportRow): string[] {
  return [
    row.kind,
    row.day,
    row.source,
    row.medium,
    row.campaign,
    row.content,
    row.term,
    row.cta,
    row.plan,
    row.placement,
    row.language,
    String(row.leads),
    String(row.chats),
    rate(row),
    String(row.linksSent),
    String(row.shares),
    String(row.qualified),
    String(row.installed),
    String(row.lost),
    String(row.value),
  ];
}

type Totals = Pick<ReportRow, "leads" | "chats" | "shares" | "installed" | "value"> & {
  adChats: number;
};

function totals(rows: ReportRow[]): Totals {
  const sum: Totals = { leads: 0, chats: 0, shares: 0, installed: 0, value: 0, adChats: 0 };
  for (const row of rows) {
    if (row.kind === "ad chat") sum.adChats += row.chats;
    else sum.chats += row.chats;
    sum.leads += row.leads;
    sum.shares += row.shares;
    sum.installed += row.installed;
    sum.value = Math.round((sum.value + row.value) * 100) / 100;
  }
  return sum;
}

/** "Leads from … to … Dubai time (UTC+4), read from …": what the report covers, and from where. */
export function reportHeading(report: Report, readFrom: string): string {
  return `Leads ${periodText(report.period, report.now)}, ${readFrom}`;
}

/**
 * A table for a terminal, under its heading (`readFrom`: where the data came from): a block of
 * rows per kind, a blank line between, then the totals.
 */
export function reportText(report: Report, readFrom: string): string {
  const total = totals(report.rows);
  // Campaign words and headlines are others' text: shown, never interpreted (no control characters).
  const safe = (line: string[]) => line.map((cell) => cell.replace(/[\p{Cc}\p{Cf}]/gu, "�"));
  const header = safe(COLUMNS);
  const blocks = KIND_ORDER.map((kind) =>
    report.rows.filter((row) => row.kind === kind).map((row) => safe(cells(row))),
  ).filter((block) => block.length > 0);
  const all = [header, ...blocks.flat()];
  const widths = COLUMNS.map((_, i) => Math.max(...all.map((line) => (line[i] ?? "").length)));
  const pad = (line: string[]) =>
    line
      .map((cell, i) =>
        i >= FIRST_FIGURE ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
      )
      .join("  ")
      .trimEnd();
  return [
    reportHeading(report, readFrom),
    "",
    pad(header),
    ...blocks.flatMap((block, i) => [...(i > 0 ? [""] : []), ...block.map(pad)]),
    "",
    `Total: ${total.leads} leads, ${total.chats} chats (${rate(total) || "0%"}), ` +
      `${total.installed} installed (AED ${total.value}); ` +
      `${total.adChats} chats from Click-to-WhatsApp ads without a site lead; ` +
      `${report.chatsWithoutCampaign} chats without a campaign; ` +
      `${total.shares} shares (not leads)`,
  ].join("\n");
}

/**
 * CSV (RFC 4180) for a spreadsheet, the table's columns and rows (its heading and totals are the
 * table's alone); a cell that a spreadsheet would run as a formula is quoted as text.
 */
export function reportCsv(report: Report): string {
  const quote = (cell: string) => {
    const text = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
    return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [COLUMNS, ...report.rows.map(cells)].map((line) => line.map(quote).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
