/**
 * The experiments report (`npm run experiments`, docs/experiments.md): per experiment and
 * variant, control first, the visitors exposed (the ledger's daily counters), the leads and
 * chats of the visitors who saw it, the lead rate with its 95% interval and the chance to beat
 * control (statistics.server.ts), and whether the sample is large enough to call. A lead counts
 * under the variant its link carried, the one its visitor saw (leads/variant-credit.server.ts); the
 * leads counted toward no variant are said apart, by reason.
 */

import { chanceToBeat, rateInterval, sampleSizePerVariant } from "~/experiments/statistics.server";
import type { ChatRecord, ExposureCount, LeadRecord } from "~/leads/ledger/ledger.server";
import { SET_ASIDE_REASONS, type SetAsideReason } from "~/leads/variant-credit.server";
import { dubaiDay } from "~/leads/visitor.server";
import type { Experiment } from "~/shared/experiment";

/** The routes that are a lead; a share ("link") is not. */
export const LEAD_CTAS: ReadonlySet<string> = new Set(["whatsapp", "email", "demo"]);
/** Below this many visitors with a lead in a variant, its rate is mostly chance. */
export const MIN_LED = 10;
/** A week, so every weekday counts once at least. */
export const MIN_DAYS = 7;
/** A chance to beat control this far from a half (95% or 5%) calls the test. */
export const CALL_AT = 0.95;

export type Note = { kind: "warning" | "verdict"; text: string };

export type VariantRow = {
  variant: string;
  control: boolean;
  /** False for a variant only the data names: renamed or removed from the file. */
  inFile: boolean;
  /** Visitors exposed: the sum of the daily counts. */
  visitors: number;
  leads: number;
  chats: number;
  /** Distinct visitor-days with a lead (a visitor's id is daily): the rate's numerator. */
  led: number;
  rate: number | null;
  low: number | null;
  high: number | null;
  /** Against the control; null for the control itself, or without visitors. */
  chance: number | null;
  /** Visitors per variant still needed for the observed difference; null when none to size. */
  stillNeeded: number | null;
  notes: Note[];
};

export type ExperimentReport = {
  id: string;
  status: Experiment["status"];
  /** The first Dubai day counted: --since's, else null (the whole history). */
  sinceDay: string | null;
  firstDay: string | null;
  /** Days with visitors exposed, in the period. */
  days: number;
  rows: VariantRow[];
  /** Leads of the period counted toward no variant, by reason (every reason, 0 too). */
  setAside: Record<SetAsideReason, number>;
  notes: Note[];
};

export type ExperimentData = {
  exposures: ExposureCount[];
  leads: LeadRecord[];
  chats: ChatRecord[];
};

const percent = (share: number, digits = 1) => `${(100 * share).toFixed(digits)}%`;
const count = (n: number) => n.toLocaleString("en-US");
const chanceText = (chance: number | null) =>
  chance === null ? "" : chance > 0.99 ? ">99%" : chance < 0.01 ? "<1%" : percent(chance, 0);

function reportOf(experiment: Experiment, data: ExperimentData, sinceDay: string | null) {
  const inPeriod = (day: string) => sinceDay === null || day >= sinceDay;
  const ids = experiment.variants.map((variant) => variant.id);
  const rows = new Map<string, VariantRow>();
  const rowOf = (variant: string) => {
    let row = rows.get(variant);
    if (!row) {
      row = {
        variant,
        control: variant === ids[0],
        inFile: ids.includes(variant),
        visitors: 0,
        leads: 0,
        chats: 0,
        led: 0,
        rate: null,
        low: null,
        high: null,
        chance: null,
        stillNeeded: null,
        notes: [],
      };
      rows.set(variant, row);
    }
    return row;
  };
  for (const id of ids) rowOf(id);

  const days = new Set<string>();
  for (const exposure of data.exposures) {
    if (exposure.experiment !== experiment.id || !inPeriod(exposure.day)) continue;
    rowOf(exposure.variant).visitors += exposure.count;
    if (exposure.count > 0) days.add(exposure.day);
  }
  const chatted = new Set(data.chats.map((chat) => chat.lead).filter(Boolean));
  const ledBy = new Map<string, Set<string>>();
  const setAside = Object.fromEntries(SET_ASIDE_REASONS.map((reason) => [reason, 0])) as Record<
    SetAsideReason,
    number
  >;
  for (const lead of data.leads) {
    if (!LEAD_CTAS.has(lead.cta)) continue;
    const aside = lead.experimentSetAside;
    // Its own reasons only: a copy read from Redis is not checked as the ledger's lines are.
    if (aside?.experiment === experiment.id && SET_ASIDE_REASONS.includes(aside.reason)) {
      if (inPeriod(dubaiDay(new Date(lead.at)))) setAside[aside.reason] += 1;
      continue;
    }
    if (lead.experiment?.id !== experiment.id) continue;
    const day = dubaiDay(new Date(lead.at));
    if (!inPeriod(day)) continue;
    const row = rowOf(lead.experiment.variant);
    row.leads += 1;
    if (lead.status === "chat_started" || chatted.has(lead.id)) row.chats += 1;
    const visitorDays = ledBy.get(row.variant) ?? new Set<string>();
    visitorDays.add(`${lead.clientId}|${day}`);
    ledBy.set(row.variant, visitorDays);
  }

  // The file's variants in its order, the control first; then any only the data names.
  const ordered = [...rows.values()].sort(
    (a, b) =>
      Number(b.inFile) - Number(a.inFile) ||
      (a.inFile ? ids.indexOf(a.variant) - ids.indexOf(b.variant) : a.variant < b.variant ? -1 : 1),
  );
  for (const row of ordered) {
    row.led = ledBy.get(row.variant)?.size ?? 0;
    if (row.visitors === 0) continue;
    // A lead counted on a day whose exposure was not (a restart between the two): never above.
    const tally = { x: Math.min(row.led, row.visitors), n: row.visitors };
    row.rate = tally.x / tally.n;
    ({ low: row.low, high: row.high } = rateInterval(tally));
  }

  const control = ordered[0] as VariantRow;
  for (const row of ordered.slice(1)) judge(row, control);

  const notes: Note[] = [];
  if (!anyVisitors(ordered)) {
    notes.push({ kind: "warning", text: "No visitors exposed in this period yet." });
  } else if (days.size < MIN_DAYS) {
    notes.push({
      kind: "warning",
      text: `Too early to call: visitors on ${days.size} day${days.size === 1 ? "" : "s"} so far; let it run ${MIN_DAYS} days at least, so every weekday counts.`,
    });
  }
  if (ordered.some((row) => !row.inFile)) {
    notes.push({
      kind: "warning",
      text: "Variants marked * are not in the experiments file (renamed or removed): their visitors are counted apart.",
    });
  }
  return {
    id: experiment.id,
    status: experiment.status,
    sinceDay,
    firstDay: [...days].sort()[0] ?? null,
    days: days.size,
    rows: ordered,
    setAside,
    notes,
  };
}

const anyVisitors = (rows: VariantRow[]) => rows.some((row) => row.visitors > 0);

/** The variant against the control: chance to beat it, sample still needed, and the notes. */
function judge(row: VariantRow, control: VariantRow) {
  const name = row.variant;
  if (row.visitors === 0 || control.visitors === 0) {
    const empty = row.visitors === 0 ? name : control.variant;
    row.notes.push({ kind: "warning", text: `${name}: no visitors for ${empty} yet.` });
    return;
  }
  row.chance = chanceToBeat(
    { x: Math.min(row.led, row.visitors), n: row.visitors },
    { x: Math.min(control.led, control.visitors), n: control.visitors },
  );
  const p1 = control.rate ?? 0;
  const p2 = row.rate ?? 0;
  const needed = sampleSizePerVariant(p1, p2);
  const warnings: string[] = [];
  if (Number.isFinite(needed)) {
    row.stillNeeded = Math.max(0, needed - Math.min(row.visitors, control.visitors));
    if (row.stillNeeded > 0) {
      warnings.push(
        `too small to call: telling ${percent(p2)} from control's ${percent(p1)} apart (5% false alarms, 80% power) takes about ${count(needed)} visitors in each variant; ${count(row.stillNeeded)} more are needed.`,
      );
    }
  } else {
    warnings.push(
      `no difference from control yet (both ${percent(p1)}): there is no effect to size a sample for; let it run.`,
    );
  }
  if (row.led < MIN_LED || control.led < MIN_LED) {
    warnings.push(
      `too few leads to call: ${row.led} visitor${row.led === 1 ? "" : "s"} with a lead here and ${control.led} in control; below ${MIN_LED} in either, a rate is mostly chance.`,
    );
  }
  if (warnings.length > 0) {
    for (const text of warnings) row.notes.push({ kind: "warning", text: `${name}: ${text}` });
    return;
  }
  const chance = chanceText(row.chance);
  row.notes.push({
    kind: "verdict",
    text:
      row.chance >= CALL_AT
        ? `${name} beats control (${chance} chance): it can be called for ${name}.`
        : row.chance <= 1 - CALL_AT
          ? `control beats ${name} (${name} has a ${chance} chance): it can be called for control.`
          : `${name}: no winner (${chance} chance to beat control); the difference is too small to matter at this size.`,
  });
}

/** The experiments to report: the running one, or with `all` every one in the file. */
export function experimentsReport(
  experiments: Experiment[],
  data: ExperimentData,
  options: { all?: boolean; since?: number | null } = {},
): ExperimentReport[] {
  const sinceDay =
    options.since === null || options.since === undefined
      ? null
      : dubaiDay(new Date(options.since));
  return experiments
    .filter((experiment) => options.all || experiment.status === "running")
    .map((experiment) => reportOf(experiment, data, sinceDay));
}

const COLUMNS = [
  "variant",
  "visitors",
  "leads",
  "chats",
  "lead rate",
  "95% interval",
  "chance to beat control",
  "visitors still needed",
];

function cells(row: VariantRow): string[] {
  return [
    `${row.variant}${row.inFile ? "" : " *"}${row.control && row.variant !== "control" ? " (control)" : ""}`,
    count(row.visitors),
    count(row.leads),
    count(row.chats),
    row.rate === null ? "" : percent(row.rate),
    row.low === null || row.high === null ? "" : `${percent(row.low)} – ${percent(row.high)}`,
    chanceText(row.chance),
    row.stillNeeded === null ? "" : count(row.stillNeeded),
  ];
}

/** Ids are letters, digits and _; anything else from the data is shown, never interpreted. */
const safe = (text: string) => text.replace(/[\p{Cc}\p{Cf}]/gu, "�");

/** What each reason means, for the report's lines. */
const SET_ASIDE_TEXT: Record<SetAsideReason, string> = {
  no_variant:
    "no variant shown (the visitor landed on a page the test does not change, was outside its traffic share, or the link lost it)",
  unknown_variant:
    "a variant this experiment does not have (a page from before a change to the file, or a changed link)",
};

/** How many leads were counted toward no variant, and why: a line per reason that has any. */
function setAsideLines(report: ExperimentReport): string[] {
  const total = SET_ASIDE_REASONS.reduce((sum, reason) => sum + report.setAside[reason], 0);
  if (total === 0) return ["Set aside: no lead; every one came with the variant its visitor saw."];
  return [
    `Set aside: ${count(total)} lead${total === 1 ? "" : "s"}, counted toward no variant:`,
    ...SET_ASIDE_REASONS.filter((reason) => report.setAside[reason] > 0).map(
      (reason) => `  ${count(report.setAside[reason])} with ${SET_ASIDE_TEXT[reason]}`,
    ),
  ];
}

function heading(report: ExperimentReport): string {
  const period = report.sinceDay
    ? `since ${report.sinceDay}`
    : `whole history${report.firstDay ? `, from ${report.firstDay}` : ""}`;
  return `Experiment ${report.id} (${report.status}), ${period} (Dubai days)`;
}

/** A table per experiment for a terminal, each followed by its warnings and verdicts. */
export function experimentsText(reports: ExperimentReport[]): string {
  return reports
    .map((report) => {
      const lines = [COLUMNS, ...report.rows.map(cells)].map((line) => line.map(safe));
      const widths = COLUMNS.map((_, i) => Math.max(...lines.map((line) => line[i]?.length ?? 0)));
      const pad = (line: string[]) =>
        line
          .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
          .join("  ")
          .trimEnd();
      const notes = [...report.notes, ...report.rows.flatMap((row) => row.notes)].map(
        (note) => `${note.kind === "warning" ? "Warning: " : "Result: "}${safe(note.text)}`,
      );
      const aside = setAsideLines(report);
      return [heading(report), "", ...lines.map(pad), "", ...aside, "", ...notes].join("\n");
    })
    .join("\n\n");
}

/** A cell a spreadsheet would run as a formula is quoted as text (as in leads/report.server.ts). */
function csvCell(cell: string): string {
  const text = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const CSV_COLUMNS = [
  "experiment",
  "status",
  "variant",
  "control",
  "visitors",
  "leads",
  "chats",
  "visitors with a lead",
  "lead rate",
  "interval low",
  "interval high",
  "chance to beat control",
  "visitors still needed",
  "notes",
  // The experiment's, on its control's row as its notes are.
  ...SET_ASIDE_REASONS.map((reason) => `leads set aside: ${reason.replace("_", " ")}`),
];

/**
 * The same as CSV (RFC 4180), one row per variant; the experiment's notes and leads set aside go
 * on its control's row.
 */
export function experimentsCsv(reports: ExperimentReport[]): string {
  const rows = reports.flatMap((report) =>
    report.rows.map((row) => [
      report.id,
      report.status,
      row.variant,
      row.control ? "yes" : "no",
      String(row.visitors),
      String(row.leads),
      String(row.chats),
      String(row.led),
      row.rate === null ? "" : percent(row.rate, 2),
      row.low === null ? "" : percent(row.low, 2),
      row.high === null ? "" : percent(row.high, 2),
      row.chance === null ? "" : percent(row.chance, 1),
      row.stillNeeded === null ? "" : String(row.stillNeeded),
      [...(row.control ? report.notes : []), ...row.notes].map((note) => note.text).join(" "),
      ...SET_ASIDE_REASONS.map((reason) => (row.control ? String(report.setAside[reason]) : "")),
    ]),
  );
  return `${[CSV_COLUMNS, ...rows].map((line) => line.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
