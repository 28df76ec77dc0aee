/**
 * Leads, chats and later stages by campaign, for the people who run the campaigns (`npm run
 * leads`): read from the ledger alone, so it needs no GA4 and shows what GA4 cannot, which
 * campaigns' leads became WhatsApp chats, then customers.
 */
import type { ChatRecord, LeadRecord } from "~/leads/ledger/ledger.server";
import { campaignDetails } from "~/shared/campaign";

export type ReportRow = {
  source: string;
  medium: string;
  campaign: string;
  cta: string;
  language: string;
  leads: number;
  chats: number;
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
  since: number;
  rows: ReportRow[];
  /** Chats that quoted no reference, or one no lead holds. */
  chatsWithoutCampaign: number;
};

const NONE = "(none)";

/** "7d", "24h", "90m" or an ISO date, as a time (ms); null when it is none of those. */
export function parseSince(raw: string, now: number): number | null {
  const relative = /^(\d{1,5})([dhm])$/.exec(raw.trim());
  if (relative) {
    const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[relative[2] as "d" | "h" | "m"];
    return now - Number(relative[1]) * unit;
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(raw)) {
    const at = Date.parse(raw);
    return Number.isNaN(at) ? null : at;
  }
  return null;
}

export function leadReport(leads: LeadRecord[], chats: ChatRecord[], since: number): Report {
  const rows = new Map<string, ReportRow>();
  const counted = leads.filter((lead) => lead.at >= since);
  const chatted = new Set(
    chats.filter((chat) => chat.at >= since && chat.lead).map((chat) => chat.lead),
  );
  for (const lead of counted) {
    const details = campaignDetails(lead.campaign);
    const row = {
      source: details.source ?? NONE,
      medium: details.medium ?? NONE,
      campaign: details.campaign ?? NONE,
      cta: lead.cta,
      language: lead.language ?? NONE,
    };
    const key = JSON.stringify(row);
    const existing = rows.get(key) ?? {
      ...row,
      leads: 0,
      chats: 0,
      qualified: 0,
      installed: 0,
      lost: 0,
      value: 0,
    };
    existing.leads += 1;
    if (lead.status === "chat_started" || chatted.has(lead.id)) existing.chats += 1;
    const stages = lead.stages ?? {};
    if (stages.qualified || stages.installed) existing.qualified += 1;
    if (stages.installed) {
      existing.installed += 1;
      // In fils: 0.1 + 0.2 is 0.3, not 0.30000000000000004.
      existing.value = Math.round((existing.value + stages.installed.value) * 100) / 100;
    }
    if (stages.lost) existing.lost += 1;
    rows.set(key, existing);
  }
  const sorted = [...rows.values()].sort(
    (a, b) => b.leads - a.leads || b.chats - a.chats || a.source.localeCompare(b.source),
  );
  const chatsWithoutCampaign = chats.filter((chat) => chat.at >= since && !chat.lead).length;
  return { since, rows: sorted, chatsWithoutCampaign };
}

const rate = (row: Pick<ReportRow, "leads" | "chats">) =>
  row.leads === 0 ? "" : `${Math.round((100 * row.chats) / row.leads)}%`;

const COLUMNS = [
  "source",
  "medium",
  "campaign",
  "cta",
  "language",
  "leads",
  "chats",
  "chat rate",
  "qualified",
  "installed",
  "lost",
  "value AED",
];

function cells(row: ReportRow): string[] {
  return [
    row.source,
    row.medium,
    row.campaign,
    row.cta,
    row.language,
    String(row.leads),
    String(row.chats),
    rate(row),
    String(row.qualified),
    String(row.installed),
    String(row.lost),
    String(row.value),
  ];
}

/** A table for a terminal, with totals. */
export function reportText(report: Report): string {
  const total = report.rows.reduce(
    (sum, row) => ({
      leads: sum.leads + row.leads,
      chats: sum.chats + row.chats,
      installed: sum.installed + row.installed,
      value: Math.round((sum.value + row.value) * 100) / 100,
    }),
    { leads: 0, chats: 0, installed: 0, value: 0 },
  );
  const lines = [COLUMNS, ...report.rows.map(cells)];
  // Campaign words are a visitor's text: shown, never interpreted (no control characters).
  const safe = lines.map((line) => line.map((cell) => cell.replace(/[\p{Cc}\p{Cf}]/gu, "�")));
  const widths = COLUMNS.map((_, i) => Math.max(...safe.map((line) => (line[i] ?? "").length)));
  const pad = (line: string[]) =>
    line.map((cell, i) => (i >= 5 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)));
  return [
    `Leads since ${new Date(report.since).toISOString()}`,
    "",
    ...safe.map((line) => pad(line).join("  ").trimEnd()),
    "",
    `Total: ${total.leads} leads, ${total.chats} chats (${rate(total) || "0%"}), ` +
      `${total.installed} installed (AED ${total.value}); ` +
      `${report.chatsWithoutCampaign} chats without a campaign`,
  ].join("\n");
}

/** CSV (RFC 4180) for a spreadsheet; a cell that a spreadsheet would run as a formula is quoted as text. */
export function reportCsv(report: Report): string {
  const quote = (cell: string) => {
    const text = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
    return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [COLUMNS, ...report.rows.map(cells)].map((line) => line.map(quote).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
