import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileJournal, replayJournal } from "~/leads/ledger/journal.server";
import { createLedger, type Ledger, type LedgerEntry } from "~/leads/ledger/ledger.server";
import { LEDGER_FILE, openLedger, readLedger } from "~/leads/ledger/open-ledger.server";

const DAY = 86_400_000;
/** 2026-11-25 12:00 in Dubai. */
const NOW = Date.parse("2026-11-25T12:00:00+04:00");

let dir: string;
const opened: Ledger[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "exposures-test-"));
});
afterEach(() => {
  for (const ledger of opened.splice(0)) ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(retentionDays = 90): Ledger {
  const ledger = openLedger(dir, retentionDays);
  opened.push(ledger);
  return ledger;
}

function reopen(ledger: Ledger, retentionDays = 90): Ledger {
  ledger.close();
  opened.splice(opened.indexOf(ledger), 1);
  return open(retentionDays);
}

/** A ledger on the directory's file whose clock says `now`. */
function openAt(now: number, retentionDays = 90): Ledger {
  const path = join(dir, LEDGER_FILE);
  const ledger = createLedger({
    journal: fileJournal<LedgerEntry>(path),
    replay: (onLine, onBad) => replayJournal(path, onLine, onBad),
    retentionDays,
    now: () => now,
  });
  opened.push(ledger);
  return ledger;
}

const lines = () =>
  readFileSync(join(dir, LEDGER_FILE), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LedgerEntry);

const sorted = (ledger: Ledger) =>
  ledger
    .exposures()
    .map(({ day, experiment, variant, count }) => `${day} ${experiment} ${variant} ${count}`)
    .sort();

describe("exposure counters", () => {
  it("count per day, experiment and variant", () => {
    const ledger = createLedger();
    for (let i = 0; i < 3; i++) {
      ledger.recordExposure({ day: "2026-11-25", experiment: "hero", variant: "control" });
    }
    ledger.recordExposure({ day: "2026-11-25", experiment: "hero", variant: "cashback" });
    ledger.recordExposure({ day: "2026-11-26", experiment: "hero", variant: "control" });
    expect(sorted(ledger)).toEqual([
      "2026-11-25 hero cashback 1",
      "2026-11-25 hero control 3",
      "2026-11-26 hero control 1",
    ]);
    ledger.close();
  });

  it("are on disk when recordExposure returns: one short line, and no visitor in it", () => {
    const ledger = open();
    ledger.recordExposure({ day: "2026-11-25", experiment: "hero_headline", variant: "control" });
    // Not closed, not flushed: what a SIGKILL at this moment would leave.
    const text = readFileSync(join(dir, LEDGER_FILE), "utf8");
    const line = text.split("\n").filter(Boolean).at(-1) ?? "";
    expect(JSON.parse(line)).toEqual({
      t: "exposure",
      day: "2026-11-25",
      experiment: "hero_headline",
      variant: "control",
    });
    expect(line.length).toBeLessThan(100);
  });

  it("survive a reopen of the journal, and go on counting from there", () => {
    let ledger = open();
    for (let i = 0; i < 5; i++) {
      ledger.recordExposure({ day: "2026-11-25", experiment: "hero", variant: "control" });
    }
    ledger.recordExposure({ day: "2026-11-25", experiment: "hero", variant: "cashback" });
    ledger = reopen(ledger);
    expect(sorted(ledger)).toEqual(["2026-11-25 hero cashback 1", "2026-11-25 hero control 5"]);
    ledger.recordExposure({ day: "2026-11-25", experiment: "hero", variant: "control" });
    ledger = reopen(ledger);
    expect(sorted(ledger)).toEqual(["2026-11-25 hero cashback 1", "2026-11-25 hero control 6"]);
    // The report's read, beside a running server.
    expect(sorted(readLedger(dir))).toEqual([
      "2026-11-25 hero cashback 1",
      "2026-11-25 hero control 6",
    ]);
  });

  it("are compacted by a sweep into one total per day, experiment and variant", () => {
    const ledger = openAt(NOW);
    for (let i = 0; i < 40; i++) {
      const variant = i % 4 === 0 ? "cashback" : "control";
      ledger.recordExposure({ day: "2026-11-25", experiment: "hero", variant });
    }
    expect(lines().filter((entry) => entry.t === "exposure")).toHaveLength(40);
    ledger.sweep();
    const after = lines();
    expect(after.filter((entry) => entry.t === "exposure")).toHaveLength(0);
    expect(after.filter((entry) => entry.t === "exposures")).toEqual([
      { t: "exposures", day: "2026-11-25", experiment: "hero", variant: "cashback", count: 10 },
      { t: "exposures", day: "2026-11-25", experiment: "hero", variant: "control", count: 30 },
    ]);
    // Totals and single lines after them add up when read back.
    ledger.recordExposure({ day: "2026-11-25", experiment: "hero", variant: "cashback" });
    ledger.close();
    opened.splice(opened.indexOf(ledger), 1);
    expect(sorted(openAt(NOW))).toEqual([
      "2026-11-25 hero cashback 11",
      "2026-11-25 hero control 30",
    ]);
  });

  it("go once their whole Dubai day is older than the retention, at a sweep and at open", () => {
    const retention = 7;
    const ledger = openAt(NOW, retention);
    // NOW less 7 days is 2026-11-18 12:00: that day is still partly within the retention.
    for (const day of ["2026-11-17", "2026-11-18", "2026-11-25"]) {
      ledger.recordExposure({ day, experiment: "hero", variant: "control" });
    }
    ledger.sweep();
    expect(sorted(ledger)).toEqual(["2026-11-18 hero control 1", "2026-11-25 hero control 1"]);
    expect(lines().some((entry) => entry.t === "exposures" && entry.day === "2026-11-17")).toBe(
      false,
    );
    ledger.close();
    opened.splice(opened.indexOf(ledger), 1);
    // A day later, opened again: 2026-11-18 has gone too.
    expect(sorted(openAt(NOW + DAY, retention))).toEqual(["2026-11-25 hero control 1"]);
  });

  it("a replica id that lasts across reopens and rewrites, written only when asked for", () => {
    let ledger = open();
    expect(lines().some((entry) => entry.t === "replica")).toBe(false);
    const id = ledger.replicaId();
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(ledger.replicaId()).toBe(id);
    ledger.sweep();
    ledger = reopen(ledger);
    expect(ledger.replicaId()).toBe(id);
    expect(lines().filter((entry) => entry.t === "replica")).toHaveLength(1);
  });
});
