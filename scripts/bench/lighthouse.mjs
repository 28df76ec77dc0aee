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
  };
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

export function chromiumVersion(path) {
  const result = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 10_000 });
  return result.stdout?.trim() || "unknown";
}

/**
 * Mobile is Lighthouse's default config (simulated throttling, Moto G Power), `mobileRuns`
 * times (or the page's own `mobileRuns`); desktop is its desktop config, once. The median reports
 * go to `reportDir`.
 */
export async function runLighthouse({ pages, mobileRuns = 3, reportDir, log }) {
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
        ["desktop", desktopConfig, 1],
      ]) {
        const lhrs = [];
        for (let run = 1; run <= runs; run++) {
          log(`Lighthouse ${page.path} ${formFactor} ${run}/${runs}`);
          const result = await lighthouse(page.url, flags, config);
          if (!result) throw new Error(`Lighthouse returned nothing for ${page.url}`);
          lhrs.push(result.lhr);
          version = result.lhr.lighthouseVersion;
        }
        const median = medianRun(lhrs);
        const name = `${page.name}-${formFactor}.json`;
        writeFileSync(join(reportDir, name), JSON.stringify(median));
        results[page.path][formFactor] = {
          ...summarize(median),
          runs: lhrs.map((lhr) => summarize(lhr).scores.performance),
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
