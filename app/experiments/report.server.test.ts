import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ExperimentData,
  experimentsCsv,
  experimentsReport,
  experimentsText,
} from "~/experiments/report.server";
import { runExperimentsReport } from "~/experiments/report-cli.server";
import type { ExposureCount, LeadRecord } from "~/leads/ledger/ledger.server";
import { openLedger } from "~/leads/ledger/open-ledger.server";
import { parseConfig } from "~/settings.server";
import type { Experiment } from "~/shared/experiment";

const HERO: Experiment = {
  id: "hero_headline",
  status: "running",
  traffic: 1,
  variants: [
    { id: "control", weight: 50, copy: {} },
    {
      id: "cashback_first",
      weight: 50,
      copy: { "hero.headline": { en: "Up to 25% back", ar: "استرد حتى 25%" } },
    },
  ],
};
const OLD: Experiment = { ...HERO, id: "old_test", status: "stopped" };

const DAYS = Array.from({ length: 8 }, (_, i) => `2026-11-${String(20 + i).padStart(2, "0")}`);
const noon = (day: string) => Date.parse(`${day}T12:00:00+04:00`);

let leadCount = 0;
function lead(variant: string, day: string, overrides: Partial<LeadRecord> = {}): LeadRecord {
  leadCount += 1;
  return {
    id: `lead-${leadCount}`,
    at: noon(day),
    cta: "whatsapp",
    campaign: {},
    clientId: `visitor-${leadCount}`,
    sessionId: "1",
    status: "new",
    experiment: { id: "hero_headline", variant },
    ...overrides,
  };
}

/** Per day: `visitors` exposed per variant, and that many visitors with a lead in each. */
function data(
  perDay: { visitors: number; control: number; cashback_first: number },
  days = DAYS,
): ExperimentData {
  const exposures: ExposureCount[] = [];
  const leads: LeadRecord[] = [];
  for (const day of days) {
    for (const variant of ["control", "cashback_first"] as const) {
      exposures.push({ day, experiment: "hero_headline", variant, count: perDay.visitors });
      for (let i = 0; i < perDay[variant]; i++) leads.push(lead(variant, day));
    }
  }
  return { exposures, leads, chats: [] };
}

describe("experimentsReport", () => {
  it("counts visitors, leads, chats and visitor-days with a lead per variant, control first", () => {
    const day = "2026-11-25";
    const one = lead("cashback_first", day, { clientId: "same", status: "chat_started" });
    const report = experimentsReport([HERO], {
      exposures: [
        { day, experiment: "hero_headline", variant: "cashback_first", count: 30 },
        { day, experiment: "hero_headline", variant: "control", count: 20 },
        { day: "2026-11-26", experiment: "hero_headline", variant: "control", count: 5 },
        // Another experiment's counts are not this one's.
        { day, experiment: "other", variant: "control", count: 999 },
      ],
      leads: [
        one,
        // The same visitor's second lead that day: two leads, one visitor-day.
        lead("cashback_first", day, { clientId: "same", cta: "email" }),
        // A chat found through the chat record rather than the status.
        lead("control", day, { id: "chatted" }),
        lead("control", day, { cta: "demo" }),
        // A share is no lead; nor is another experiment's lead, nor one outside any.
        lead("control", day, { cta: "link" }),
        lead("control", day, { experiment: { id: "other", variant: "control" } }),
        lead("control", day, { experiment: undefined }),
      ],
      chats: [{ messageId: "wamid.1", at: noon(day), lead: "chatted" }],
    });
    expect(report).toHaveLength(1);
    const [control, variant] = report[0]?.rows ?? [];
    expect(control).toMatchObject({
      variant: "control",
      control: true,
      visitors: 25,
      leads: 2,
      chats: 1,
      led: 2,
    });
    expect(variant).toMatchObject({
      variant: "cashback_first",
      control: false,
      visitors: 30,
      leads: 2,
      chats: 1,
      led: 1,
    });
    expect(control?.rate).toBeCloseTo(2 / 25, 10);
    expect(variant?.rate).toBeCloseTo(1 / 30, 10);
    expect(control?.chance).toBeNull();
    expect(variant?.chance).toBeGreaterThan(0);
    expect(variant?.chance).toBeLessThan(0.5);
  });

  it("counts each lead under the variant its visitor saw, and the ones set aside apart, by reason", () => {
    const day = "2026-11-25";
    const aside = (reason: "no_variant" | "unknown_variant", overrides: Partial<LeadRecord> = {}) =>
      lead("control", day, {
        experiment: undefined,
        experimentSetAside: { experiment: "hero_headline", reason },
        ...overrides,
      });
    const data: ExperimentData = {
      exposures: [
        { day, experiment: "hero_headline", variant: "control", count: 10 },
        { day, experiment: "hero_headline", variant: "cashback_first", count: 10 },
      ],
      leads: [
        lead("control", day),
        lead("cashback_first", day),
        lead("cashback_first", day),
        aside("no_variant"),
        aside("no_variant", { cta: "email" }),
        aside("no_variant"),
        aside("unknown_variant"),
        // A share is no lead, set aside or not; nor is the day before --since, nor another test's.
        aside("no_variant", { cta: "link" }),
        aside("unknown_variant", { at: noon("2026-11-24") }),
        aside("no_variant", {
          experimentSetAside: { experiment: "old_test", reason: "no_variant" },
        }),
      ],
      chats: [],
    };
    const [report] = experimentsReport([HERO], data, { since: noon(day) });
    expect(report?.rows.map((row) => [row.variant, row.leads])).toEqual([
      ["control", 1],
      ["cashback_first", 2],
    ]);
    expect(report?.setAside).toEqual({ no_variant: 3, unknown_variant: 1 });
    const text = experimentsText(report ? [report] : []);
    expect(text).toContain("Set aside: 4 leads, counted toward no variant:");
    expect(text).toMatch(/^ {2}3 with no variant shown \(the visitor landed on a page/m);
    expect(text).toMatch(/^ {2}1 with a variant this experiment does not have/m);
    const csv = experimentsCsv(report ? [report] : []).split("\r\n");
    expect(csv[1]?.endsWith(",3,1")).toBe(true);
    expect(csv[2]?.endsWith(",,")).toBe(true);
    // The stopped experiment's own lead is its own.
    const [old] = experimentsReport([{ ...OLD, status: "stopped" }], data, { all: true });
    expect(old?.setAside).toEqual({ no_variant: 1, unknown_variant: 0 });
  });

  it("says when no lead was set aside", () => {
    const [report] = experimentsReport(
      [HERO],
      data({ visitors: 5, control: 1, cashback_first: 1 }),
    );
    expect(report?.setAside).toEqual({ no_variant: 0, unknown_variant: 0 });
    expect(experimentsText(report ? [report] : [])).toContain(
      "Set aside: no lead; every one came with the variant its visitor saw.",
    );
  });

  it("reports only the running experiment, or every one with all", () => {
    const both = [OLD, HERO];
    expect(experimentsReport(both, data({ visitors: 1, control: 0, cashback_first: 0 }))).toEqual([
      expect.objectContaining({ id: "hero_headline", status: "running" }),
    ]);
    expect(
      experimentsReport(both, data({ visitors: 1, control: 0, cashback_first: 0 }), {
        all: true,
      }).map((report) => report.id),
    ).toEqual(["old_test", "hero_headline"]);
  });

  it("counts from the Dubai day --since falls on", () => {
    const since = Date.parse("2026-11-26T20:30:00Z"); // 00:30 on the 27th in Dubai
    const [report] = experimentsReport(
      [HERO],
      data({ visitors: 100, control: 3, cashback_first: 4 }),
      { since },
    );
    expect(report?.sinceDay).toBe("2026-11-27");
    expect(report?.days).toBe(1);
    expect(report?.rows.map((row) => [row.visitors, row.leads])).toEqual([
      [100, 3],
      [100, 4],
    ]);
  });

  it("warns while the sample is too small, with the visitors still needed", () => {
    // 400 visitors a variant over 2 days: 5% against 7.5%.
    const [report] = experimentsReport(
      [HERO],
      data({ visitors: 200, control: 10, cashback_first: 15 }, DAYS.slice(0, 2)),
    );
    const variant = report?.rows[1];
    // n = (1.96·√(2·0.0625·0.9375) + 0.8416·√(0.05·0.95 + 0.075·0.925))² / 0.025² = 1,471.
    expect(variant?.stillNeeded).toBe(1471 - 400);
    const text = experimentsText(report ? [report] : []);
    expect(text).toContain(
      "Warning: Too early to call: visitors on 2 days so far; let it run 7 days at least",
    );
    expect(text).toContain(
      "Warning: cashback_first: too small to call: telling 7.5% from control's 5.0% apart (5% false alarms, 80% power) takes about 1,471 visitors in each variant; 1,071 more are needed.",
    );
    expect(text).not.toContain("Result:");
  });

  it("warns on too few leads and on no difference, which has no sample size", () => {
    const [few] = experimentsReport([HERO], data({ visitors: 100, control: 1, cashback_first: 0 }));
    expect(experimentsText(few ? [few] : [])).toContain(
      "too few leads to call: 0 visitors with a lead here and 8 in control; below 10 in either",
    );
    const [same] = experimentsReport(
      [HERO],
      data({ visitors: 100, control: 2, cashback_first: 2 }),
    );
    expect(same?.rows[1]?.stillNeeded).toBeNull();
    expect(experimentsText(same ? [same] : [])).toContain(
      "cashback_first: no difference from control yet (both 2.0%)",
    );
  });

  it("calls the test once the sample is large enough, for the variant or for control", () => {
    const [won] = experimentsReport(
      [HERO],
      data({ visitors: 400, control: 20, cashback_first: 40 }),
    );
    expect(won?.rows[1]?.stillNeeded).toBe(0);
    expect(won?.rows[1]?.chance).toBeGreaterThan(0.99);
    const text = experimentsText(won ? [won] : []);
    expect(text).not.toContain("Warning");
    expect(text).toContain(
      "Result: cashback_first beats control (>99% chance): it can be called for cashback_first.",
    );
    const [lost] = experimentsReport(
      [HERO],
      data({ visitors: 400, control: 40, cashback_first: 20 }),
    );
    expect(experimentsText(lost ? [lost] : [])).toContain(
      "Result: control beats cashback_first (cashback_first has a <1% chance): it can be called for control.",
    );
  });

  it("lists a variant the file no longer names after the others, marked", () => {
    const base = data({ visitors: 10, control: 1, cashback_first: 1 }, DAYS.slice(0, 1));
    base.exposures.push({
      day: DAYS[0] as string,
      experiment: "hero_headline",
      variant: "=old_name",
      count: 7,
    });
    const reports = experimentsReport([HERO], base);
    expect(reports[0]?.rows.map((row) => row.variant)).toEqual([
      "control",
      "cashback_first",
      "=old_name",
    ]);
    expect(experimentsText(reports)).toMatch(/^=old_name \*\s+7\s/m);
    // A spreadsheet never runs it as a formula.
    expect(experimentsCsv(reports)).toContain('\r\nhero_headline,running,"\'=old_name",no,7,');
  });
});

describe("the table and the CSV", () => {
  const [report] = experimentsReport(
    [HERO],
    data({ visitors: 400, control: 20, cashback_first: 30 }),
  );
  const reports = report ? [report] : [];

  it("a table with both variants, their counts, rate, interval and chance", () => {
    const lines = experimentsText(reports).split("\n");
    expect(lines[0]).toBe(
      "Experiment hero_headline (running), whole history, from 2026-11-20 (Dubai days)",
    );
    expect(lines[2]).toMatch(
      /^variant\s+visitors\s+leads\s+chats\s+lead rate\s+95% interval\s+chance to beat control\s+visitors still needed$/,
    );
    expect(lines[3]).toMatch(/^control\s+3,200\s+160\s+0\s+5\.0%\s+4\.3% – 5\.8%$/);
    expect(lines[4]).toMatch(
      /^cashback_first\s+3,200\s+240\s+0\s+7\.5%\s+6\.6% – 8\.5%\s+>99%\s+0$/,
    );
  });

  it("the same as CSV, RFC 4180 lines, a row per variant", () => {
    const csv = experimentsCsv(reports);
    expect(csv.endsWith("\r\n")).toBe(true);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(
      "experiment,status,variant,control,visitors,leads,chats,visitors with a lead,lead rate,interval low,interval high,chance to beat control,visitors still needed,notes,leads set aside: no variant,leads set aside: unknown variant",
    );
    expect(lines[1]).toBe(
      "hero_headline,running,control,yes,3200,160,0,160,5.00%,4.30%,5.81%,,,,0,0",
    );
    expect(lines[2]).toMatch(
      /^hero_headline,running,cashback_first,no,3200,240,0,240,7\.50%,6\.64%,8\.46%,\d+\.\d%,0,"?cashback_first beats control.*,,$/,
    );
  });
});

describe("npm run experiments", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "experiments-cli-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(args: string[], env: Record<string, string> = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runExperimentsReport(args, env, parseConfig, {
      out: (text) => out.push(text),
      err: (text) => err.push(text),
    });
    return { code, out: out.join(""), err: err.join("") };
  }

  function file(experiments: Experiment[]) {
    const path = join(dir, "experiments.json");
    writeFileSync(path, JSON.stringify({ experiments }));
    return path;
  }

  it("reads the ledger under DATA_DIR and prints both variants with their counts", async () => {
    const ledger = openLedger(join(dir, "data"), 90);
    for (let i = 0; i < 12; i++) {
      const variant = i % 3 === 0 ? "control" : "cashback_first";
      ledger.recordExposure({ day: "2026-11-25", experiment: "hero_headline", variant });
    }
    ledger.recordLead(lead("cashback_first", "2026-11-25"), []);
    ledger.close();
    const env = { DATA_DIR: join(dir, "data"), EXPERIMENTS_FILE: file([HERO]) };
    const table = await run([], env);
    expect(table.code, table.err).toBe(0);
    expect(table.out).toMatch(/^control\s+4\s+0\s+0\s+0\.0%/m);
    expect(table.out).toMatch(/^cashback_first\s+8\s+1\s+0\s+12\.5%/m);
    expect(table.out).toContain("Warning: cashback_first: too few leads to call");
    const csv = await run(["--csv", "--since", "2026-11-01"], env);
    expect(csv.out.split("\r\n")[2]).toMatch(/^hero_headline,running,cashback_first,no,8,1,0,1,/);
  });

  it("says when no experiment is running, and reports stopped ones with --all", async () => {
    const env = { DATA_DIR: join(dir, "data"), EXPERIMENTS_FILE: file([OLD]) };
    const none = await run([], env);
    expect(none).toMatchObject({ code: 0, err: "" });
    expect(none.out).toBe(
      "No experiment is running; `npm run experiments -- --all` reports the stopped ones.\n",
    );
    const all = await run(["--all"], env);
    expect(all.out).toContain("Experiment old_test (stopped)");
    const unset = await run([], { DATA_DIR: join(dir, "data") });
    expect(unset.out).toMatch(/^No experiment: EXPERIMENTS_FILE is not set/);
  });

  it("exits 2 with the usage on a bad argument, and a settings error in one line", async () => {
    const bad = await run(["--everything"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(
      /^unknown argument "--everything"\nusage: npm run experiments \[-- --since 7d\|yesterday\|2026-11-01\] \[--until yesterday\|2026-11-01\] \[--all\] \[--csv\]\n/,
    );
    const since = await run(["--since", "last week"]);
    expect(since.code).toBe(2);
    expect(since.err).toMatch(/^--since must be a Dubai day/);
    const settings = await run([], { EXPERIMENTS_FILE: join(dir, "missing.json") });
    expect(settings.code).toBe(2);
    expect(settings.err.trimEnd().split("\n")).toHaveLength(1);
    expect(settings.err).toContain("EXPERIMENTS_FILE");
  });
});
