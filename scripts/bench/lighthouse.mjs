// Lighthouse through its node API against Debian's Chromium; never a downloaded browser.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { CHROMIUM_FLAGS, findChromium } from "../lib/chromium.mjs";
import { track } from "./processes.mjs";
import { traceTasks } from "./trace-tasks.mjs";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const METRICS = {
  fcp: "first-contentful-paint",
  lcp: "largest-contentful-paint",
  tbt: "total-blocking-time",
  cls: "cumulative-layout-shift",
  tti: "interactive",
};

function summarize(lhr) {
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => {
      const score = lhr.categories[id]?.score;
      return [id, typeof score === "number" ? Math.round(score * 100) : null];
    }),
  );
  const metrics = Object.fromEntries(
    Object.entries(METRICS).map(([key, id]) => [key, lhr.audits[id]?.numericValue ?? null]),
  );
  // Full marks are the target, so whatever keeps a category from 100 is worth naming.
  const shortfalls = [];
  for (const id of CATEGORIES) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && typeof audit?.score === "number" && audit.score < 1) {
        shortfalls.push({
          category: id,
          id: ref.id,
          score: audit.score,
          display: audit.displayValue,
        });
      }
    }
  }
  return {
    url: lhr.finalDisplayedUrl,
    status: lhr.audits["http-status-code"]?.score === 0 ? "error status" : "ok",
    runtimeError: lhr.runtimeError?.code ?? null,
    warnings: lhr.runWarnings ?? [],
    scores,
    metrics,
    totalBytes: lhr.audits["total-byte-weight"]?.numericValue ?? null,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    shortfalls,
    mainThread: mainThreadWork(lhr),
    longTasks: longTasks(lhr),
  };
}

/**
 * Lighthouse's main-thread work by group over the whole load (`mainthread-work-breakdown`, in
 * simulated milliseconds: the trace's times × the CPU slowdown, 4 on mobile), biggest first.
 */
function mainThreadWork(lhr) {
  const items = lhr.audits["mainthread-work-breakdown"]?.details?.items ?? [];
  return items
    .map((item) => ({ group: item.group, label: item.groupLabel, ms: item.duration }))
    .sort((a, b) => b.ms - a.ms);
}

/**
 * The `long-tasks` audit's tasks (simulated start and duration, the URL they are attributed to),
 * longest first, each with the time by group inside it from the audit's debug data, which lists
 * the same tasks in the same order.
 */
function longTasks(lhr) {
  const details = lhr.audits["long-tasks"]?.details;
  const debug = details?.debugData;
  return (details?.items ?? []).map((item, index) => {
    const task = debug?.tasks?.[index];
    const groups = task
      ? Object.entries(task)
          .filter(([key]) => !["urlIndex", "startTime", "duration"].includes(key))
          .map(([group, ms]) => ({ group, ms }))
          .sort((a, b) => b.ms - a.ms)
      : [];
    return { url: item.url, startTime: item.startTime, duration: item.duration, groups };
  });
}

/**
 * The run with the median performance score; when several runs share it, Lighthouse's own
 * computeMedianRun picks among them (closest to the median FCP and TTI), so that the metrics
 * shown come from one real run rather than a mix of runs.
 */
function medianRun(lhrs) {
  const score = (lhr) => lhr.categories.performance?.score ?? -1;
  const sorted = [...lhrs].sort((a, b) => score(a) - score(b));
  const middle = score(sorted[Math.floor((sorted.length - 1) / 2)]);
  const tied = sorted.filter((lhr) => score(lhr) === middle);
  try {
    return computeMedianRun(tied);
  } catch {
    // A run without FCP or TTI (an error page that never painted): any of the tied runs.
    return tied[0];
  }
}

/** The long tasks and CPU times of a run's trace (trace-tasks.mjs), or why they are missing. */
function readTrace(trace) {
  if (!trace) return { error: "no trace" };
  try {
    return traceTasks(trace);
  } catch (error) {
    return { error: String(error?.message ?? error) };
  }
}

export function chromiumVersion(path) {
  const result = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 10_000 });
  return result.stdout?.trim() || "unknown";
}

/**
 * Mobile is Lighthouse's default config (simulated throttling, Moto G Power), `mobileRuns`
 * times (or the page's own `mobileRuns`); desktop is its desktop config, once, unless the page
 * says `desktop: false`. The median reports go to `reportDir`; with `saveTraces`, every run's
 * trace too (`<name>-<form factor>-<run>.trace.json`, for Chromium's Performance panel).
 */
export async function runLighthouse({ pages, mobileRuns = 3, reportDir, log, saveTraces = false }) {
  const chromePath = findChromium();
  const chrome = await launch({
    chromePath,
    chromeFlags: CHROMIUM_FLAGS,
    handleSIGINT: false,
    logLevel: "silent",
  });
  const untrack = track("chromium", () => process.kill(-chrome.pid, "SIGKILL"));
  mkdirSync(reportDir, { recursive: true });
  const flags = {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: CATEGORIES,
    // /share may not exist yet: measure its 404 page instead of failing the run.
    ignoreStatusCode: true,
  };
  const results = {};
  let version = "unknown";
  try {
    for (const page of pages) {
      results[page.path] = {};
      for (const [formFactor, config, runs] of [
        ["mobile", undefined, page.mobileRuns ?? mobileRuns],
        ["desktop", desktopConfig, page.desktop === false ? 0 : 1],
      ]) {
        if (runs === 0) continue;
        const lhrs = [];
        const traces = new Map();
        for (let run = 1; run <= runs; run++) {
          log(`Lighthouse ${page.path} ${formFactor} ${run}/${runs}`);
          const result = await lighthouse(page.url, flags, config);
          if (!result) throw new Error(`Lighthouse returned nothing for ${page.url}`);
          lhrs.push(result.lhr);
          version = result.lhr.lighthouseVersion;
          traces.set(result.lhr, readTrace(result.artifacts?.Trace));
          if (saveTraces) {
            const trace = join(reportDir, `${page.name}-${formFactor}-${run}.trace.json`);
            writeFileSync(trace, JSON.stringify(result.artifacts.Trace));
          }
        }
        const median = medianRun(lhrs);
        const name = `${page.name}-${formFactor}.json`;
        writeFileSync(join(reportDir, name), JSON.stringify(median));
        results[page.path][formFactor] = {
          ...summarize(median),
          trace: traces.get(median),
          runs: lhrs.map((lhr) => summarize(lhr).scores.performance),
          // TBT of every run, as the median run's alone hides how much it moves.
          tbts: lhrs.map((lhr) => lhr.audits["total-blocking-time"]?.numericValue ?? null),
          report: name,
        };
      }
    }
  } finally {
    await chrome.kill();
    untrack();
  }
  return { chromium: chromiumVersion(chromePath), lighthouse: version, results };
}
