import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runExperimentsReport } from "~/experiments/report-cli.server";
import type { LeadRecord } from "~/leads/ledger/ledger.server";
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

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "experiments-period-"));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

async function run(args: string[]) {
  const path = join(dir, "experiments.json");
  writeFileSync(path, JSON.stringify({ experiments: [HERO] }));
  const out: string[] = [];
  const err: string[] = [];
  const code = await runExperimentsReport(
    args,
    { DATA_DIR: join(dir, "data"), EXPERIMENTS_FILE: path },
    parseConfig,
    { out: (text) => out.push(text), err: (text) => err.push(text) },
  );
  return { code, out: out.join(""), err: err.join("") };
}

let leads = 0;
const lead = (variant: string, at: string): LeadRecord => ({
  id: `lead-${++leads}`,
  at: Date.parse(at),
  cta: "whatsapp",
  campaign: {},
  clientId: `visitor-${leads}`,
  sessionId: "1",
  status: "new",
  experiment: { id: "hero_headline", variant },
});

/**
 * 26, 27 and 28 November in Dubai: 10, 20 and 40 visitors a variant; a control lead at the last
 * second of the 26th and one at the first of the 27th (19:59:59 and 20:00:00 UTC), and one on
 * the 28th.
 */
function fill() {
  const ledger = openLedger(join(dir, "data"), 90);
  for (const [day, visitors] of [
    ["2026-11-26", 10],
    ["2026-11-27", 20],
    ["2026-11-28", 40],
  ] as const) {
    for (let i = 0; i < 2 * visitors; i++) {
      const variant = i % 2 === 0 ? "control" : "cashback_first";
      ledger.recordExposure({ day, experiment: "hero_headline", variant });
    }
  }
  for (const one of [
    lead("control", "2026-11-26T19:59:59Z"),
    lead("control", "2026-11-26T20:00:00Z"),
    lead("control", "2026-11-28T08:00:00Z"),
  ]) {
    ledger.recordLead(one, []);
  }
  ledger.close();
}

describe("npm run experiments over a period", () => {
  it("closes yesterday in Dubai: its visitors and leads, none of the day before or today", async () => {
    fill();
    // 00:30 on the 28th in Dubai: still the 27th in UTC.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-27T20:30:00Z") });
    const day = await run(["--since", "yesterday", "--until", "yesterday"]);
    expect(day.code, day.err).toBe(0);
    expect(day.out.split("\n")[0]).toBe(
      `Visitors and leads from 2026-11-27 00:00 to 2026-11-27 24:00 Dubai time (UTC+4), read from the ledger at ${join(dir, "data")}`,
    );
    expect(day.out).toMatch(/^control\s+20\s+1\s/m);
    expect(day.out).toMatch(/^cashback_first\s+20\s+0\s/m);
    const csv = await run(["--since", "2026-11-26", "--until", "2026-11-27", "--csv"]);
    expect(csv.out.split("\r\n")[1]).toMatch(/^hero_headline,running,control,yes,30,2,/);
    // Without --until, to today's end.
    const since = await run(["--since", "yesterday"]);
    expect(since.out).toMatch(/^control\s+60\s+2\s/m);
  });

  it("reads a relative --until to the end of the Dubai day it falls in", async () => {
    fill();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-28T10:00:00Z") });
    // 24h ago is 14:00 on the 27th: the whole of the 27th is counted.
    const run27 = await run(["--until", "24h"]);
    expect(run27.out.split("\n")[0]).toMatch(
      /^Visitors and leads from the first record to 2026-11-27 24:00 /,
    );
    expect(run27.out).toMatch(/^control\s+30\s+2\s/m);
  });

  it("refuses --until before --since with one line and exit 2", async () => {
    const refused = await run(["--since", "2026-11-28", "--until", "2026-11-27"]);
    expect(refused.code).toBe(2);
    expect(refused.err.split("\n")[0]).toBe(
      '--until "2026-11-27" (2026-11-27 24:00) is not after --since "2026-11-28" (2026-11-28 00:00), Dubai time: the period is empty',
    );
    expect(refused.out).toBe("");
  });
});
