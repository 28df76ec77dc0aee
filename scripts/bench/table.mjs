// Turns the measurements into rows with their targets, and prints them as text or markdown.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { taskGroups } from "lighthouse/core/lib/tracehouse/task-groups.js";
import { handOffRows } from "./handoff.mjs";
import { LABELS } from "./profile.mjs";

export function machine() {
  let cpu = cpus()[0]?.model?.trim() || "unknown CPU";
  try {
    cpu =
      /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? cpu;
  } catch {
    // Not Linux: os.cpus() it is.
  }
  let node = process.version;
  try {
    node = execFileSync("node", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    // The running node's own version is the next best thing.
  }
  return { cpu, cores: cpus().length, node };
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const ms = (value) => (value === null || value === undefined ? "n/a" : `${Math.round(value)} ms`);
const seconds = (value) => (value === null ? "n/a" : `${(value / 1000).toFixed(2)} s`);
const cls = (value) => (value === null ? "n/a" : value.toFixed(3));
const score = (value) => (value === null ? "n/a" : String(value));
const rps = (value) => `${Math.round(value)} req/s`;

// A metric a failed run could not measure must not pass (null <= 1000 is true in JavaScript).
const atMost = (value, limit) => typeof value === "number" && value <= limit;

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export function median(values) {
  const sorted = values.filter((v) => typeof v === "number").sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The bar for mobile `/`: 100 in at least 2 of 3 runs, with a median TBT ≤ 50 ms. */
const TBT_MEDIAN_LIMIT = 50;
const fullMarksNeeded = (runs) => Math.ceil((runs * 2) / 3);

/** TBT of each run with their median, and how many runs scored 100. */
export function runRows(path, run) {
  const tbt = median(run.tbts ?? []);
  const hundreds = run.runs.filter((value) => value === 100).length;
  const needed = fullMarksNeeded(run.runs.length);
  return [
    {
      label: "TBT, each run",
      short: `median TBT (${path} mobile)`,
      value: `${(run.tbts ?? []).map((v) => (v === null ? "n/a" : Math.round(v))).join(", ")} ms (median ${ms(tbt)})`,
      target: `median ≤ ${TBT_MEDIAN_LIMIT} ms`,
      pass: atMost(tbt, TBT_MEDIAN_LIMIT),
    },
    {
      label: "Performance 100",
      short: `performance 100 in ${needed} of ${run.runs.length} (${path} mobile)`,
      value: `in ${hundreds} of ${run.runs.length} runs`,
      target: `≥ ${needed} of ${run.runs.length}`,
      pass: hundreds >= needed,
    },
  ];
}

const groupLabel = (id) => taskGroups[id]?.label ?? id;

/** A URL of the page under test without its origin: `/` is the document itself. */
function shortUrl(url, pageUrl) {
  try {
    const { origin } = new URL(pageUrl);
    return url.startsWith(origin) ? url.slice(origin.length) || "/" : url;
  } catch {
    return url;
  }
}

/**
 * Where the main thread's time went in the median run (Lighthouse's `mainthread-work-breakdown`)
 * and its longest tasks (`long-tasks`), each with its time by group: what TBT is made of.
 */
export function mainThreadRows(path, run) {
  const rows = [
    {
      section: `Lighthouse, ${path} on mobile, main-thread work of the median run (simulated: the trace's times × 4)`,
    },
  ];
  const total = run.mainThread.reduce((sum, group) => sum + group.ms, 0);
  for (const group of run.mainThread) rows.push({ label: group.label, value: ms(group.ms) });
  rows.push({ label: "All", value: ms(total) });
  rows.push({
    section: `Lighthouse, ${path} on mobile, long tasks of the median run (simulated start and duration; FCP ${seconds(run.metrics.fcp)})`,
  });
  if (run.longTasks.length === 0) rows.push({ label: "none", value: "" });
  for (const task of run.longTasks.slice(0, 10)) {
    const inside = task.groups
      .filter((group) => group.ms >= 1)
      .map((group) => `${groupLabel(group.group)} ${Math.round(group.ms)}`)
      .join(" · ");
    rows.push({
      label: `at ${ms(task.startTime)}`,
      value: `${ms(task.duration)}, ${shortUrl(task.url, run.url)}${inside ? ` (${inside} ms)` : ""}`,
    });
  }
  rows.push(...traceRows(path, run));
  return rows;
}

const ms1 = (value) => `${value.toFixed(1)} ms`;

/**
 * The same run's trace, unsimulated: the main thread's tasks of 12.5 ms or more (a long task once
 * multiplied by 4), each with the CPU time the thread had in it and what it ran, and how much of
 * the main thread's wall time it spent without a core, beside what the other busy threads used.
 */
function traceRows(path, run) {
  const trace = run.trace;
  if (!trace || trace.error) {
    return [{ label: "the trace", value: `not read: ${trace?.error ?? "missing"}` }];
  }
  const rows = [
    {
      section: `Lighthouse, ${path} on mobile, the median run's trace: main-thread tasks of 12.5 ms or more of wall time (FCP at ${ms(trace.fcp)})`,
    },
  ];
  if (trace.long.length === 0) rows.push({ label: "none", value: "" });
  for (const task of trace.long) {
    const when = trace.fcp !== null && task.startTime >= trace.fcp ? "after FCP" : "before FCP";
    const parts = task.parts.map((part) => `${part.label} ${part.ms.toFixed(1)}`).join(" · ");
    rows.push({
      label: `at ${ms(task.startTime)} (${when})`,
      value: `wall ${ms1(task.wall)}, CPU ${ms1(task.cpu)}${task.layout ? ", laid out" : ""}: ${parts}`,
    });
  }
  const neighbours = trace.neighbours.map((n) => `${n.label} ${ms(n.ms)}`).join(", ");
  rows.push(
    {
      label: "main thread: wall ÷ CPU",
      value: `${(trace.wall / trace.cpu).toFixed(2)}× (wall ${ms(trace.wall)}, CPU ${ms(trace.cpu)})`,
    },
    { label: "CPU of the threads beside it", value: neighbours },
  );
  return rows;
}

function lighthouseRows(lighthouse) {
  const rows = [];
  const home = lighthouse.results["/"]?.mobile;
  if (home) {
    rows.push({
      section: `Lighthouse ${lighthouse.lighthouse}, / on mobile (median of ${home.runs.length})`,
    });
    const runs = home.runs.join(", ");
    const scoreRow = (label, id) => ({
      label,
      short: `${label} (/ mobile)`,
      value: score(home.scores[id]) + (id === "performance" ? ` (runs: ${runs})` : ""),
      target: "100",
      pass: home.scores[id] === 100,
    });
    rows.push(
      scoreRow("Performance", "performance"),
      scoreRow("Accessibility", "accessibility"),
      scoreRow("Best practices", "best-practices"),
      scoreRow("SEO", "seo"),
      {
        label: "FCP",
        short: "FCP (/ mobile)",
        value: seconds(home.metrics.fcp),
        target: "≤ 1.0 s",
        pass: atMost(home.metrics.fcp, 1000),
      },
      {
        label: "LCP",
        short: "LCP (/ mobile)",
        value: seconds(home.metrics.lcp),
        target: "≤ 1.2 s",
        pass: atMost(home.metrics.lcp, 1200),
      },
      {
        label: "TBT",
        short: "TBT (/ mobile)",
        value: ms(home.metrics.tbt),
        // The bar, as the median row below: 0 ms was a bar a 2-core machine misses alone.
        target: `≤ ${TBT_MEDIAN_LIMIT} ms`,
        pass: atMost(home.metrics.tbt, TBT_MEDIAN_LIMIT),
      },
      {
        label: "CLS",
        short: "CLS (/ mobile)",
        value: cls(home.metrics.cls),
        target: "0",
        pass: Number(cls(home.metrics.cls)) === 0,
      },
      ...runRows("/", home),
    );
  }
  rows.push({
    section: "Lighthouse, other pages and desktop (scores P/A/BP/SEO; FCP/LCP/TBT/CLS)",
  });
  // SEO 100 on /, /share and /sitemap (/'s mobile score has its row above).
  for (const path of ["/share", "/sitemap"]) {
    const runs = ["mobile", "desktop"].map((formFactor) => lighthouse.results[path]?.[formFactor]);
    if (!runs.some(Boolean)) continue;
    rows.push({
      label: `SEO, ${path} (mobile / desktop)`,
      short: `SEO (${path})`,
      value: runs.map((run) => score(run?.scores.seo ?? null)).join(" / "),
      target: "100",
      pass: runs.every((run) => run?.scores.seo === 100),
    });
  }
  for (const path of ["/", "/share", "/sitemap"]) {
    for (const formFactor of ["mobile", "desktop"]) {
      if (path === "/" && formFactor === "mobile") continue;
      const run = lighthouse.results[path]?.[formFactor];
      if (!run) continue;
      const median = run.runs.length > 1 ? ` (median of ${run.runs.length})` : "";
      const name = `${path} ${formFactor}${median}`;
      const status = run.status === "ok" ? "" : " (error status page)";
      const { scores, metrics } = run;
      rows.push(
        ...(run.tbts?.length > 1
          ? [
              {
                label: `${name} TBT, each run`,
                value: `${run.tbts.map((v) => (v === null ? "n/a" : Math.round(v))).join(", ")} ms`,
              },
            ]
          : []),
        {
          label: `${name} scores${status}`,
          value: [scores.performance, scores.accessibility, scores["best-practices"], scores.seo]
            .map(score)
            .join(" / "),
        },
        {
          label: `${name} metrics`,
          value: [
            seconds(metrics.fcp),
            seconds(metrics.lcp),
            ms(metrics.tbt),
            cls(metrics.cls),
          ].join(" / "),
        },
      );
    }
  }
  // The same Lighthouse, machine and minutes on a page with nothing to do: what it finds there is
  // the machine's (scripts/bench/blank-page.mjs).
  const blank = lighthouse.results.blank?.mobile;
  if (blank) {
    const trace = blank.trace && !blank.trace.error ? blank.trace : null;
    rows.push({
      label: `a blank page (the machine), mobile TBT, ${blank.tbts.length} run${blank.tbts.length > 1 ? "s" : ""}`,
      value:
        `${blank.tbts.map((v) => (v === null ? "n/a" : Math.round(v))).join(", ")} ms; host benchmark index ${Math.round(blank.benchmarkIndex ?? 0)}` +
        (trace ? `; main thread wall ÷ CPU ${(trace.wall / trace.cpu).toFixed(2)}×` : ""),
    });
  }
  if (home) rows.push(...mainThreadRows("/", home));
  return rows;
}

function bytesRows(bytes) {
  return [
    { section: `First load of / (gzip -${bytes.gzipLevel}; 1 kB = 1,000 bytes)` },
    {
      label: `JavaScript, framework (React, Remix; ${bytes.framework.files} files)`,
      value: kB(bytes.framework.gzip),
    },
    {
      label: `JavaScript, app (${bytes.app.files} files)`,
      short: "app JavaScript",
      value: kB(bytes.app.gzip),
      target: "≤ 15 kB",
      pass: bytes.app.gzip <= 15_000,
    },
    {
      label: "CSS",
      short: "CSS",
      value: kB(bytes.css.gzip),
      target: "≤ 15 kB",
      pass: bytes.css.gzip <= 15_000,
    },
    {
      label: "HTML",
      short: "HTML",
      value: `${kB(bytes.html.gzip)} (${kB(bytes.html.raw)} raw)`,
      // The / document in one round trip of a new connection (docs/performance.md).
      target: "≤ 14 kB",
      pass: bytes.html.gzip <= 14_000,
    },
    { label: "Other (icons, images)", value: kB(bytes.other.gzip) },
    {
      label: `Total (${bytes.total.files} files)`,
      short: "total transfer",
      value: kB(bytes.total.gzip),
      target: "≤ 150 kB",
      pass: bytes.total.gzip <= 150_000,
    },
  ];
}

const loadValue = (run) =>
  `${rps(run.requestsPerSecond)}, p50 ${ms(run.p50)}, p99 ${ms(run.p99)}` +
  (run.non2xx || run.errors ? ` (${run.non2xx} not 2xx, ${run.errors} errors)` : "");
const ratio = (a, b) => `${(a.requestsPerSecond / b.requestsPerSecond).toFixed(3)}×`;

/** What the server must manage against nginx serving the same bytes from a file. */
const NGINX_SHARE = 0.25;

function loadRows(load) {
  const rows = [
    {
      section: `GET /, 50 connections × 10 s (autocannon, browser headers, after ${load.warmup} warm-up requests)`,
    },
  ];
  const { node, uncached, nginx, experiment } = load;
  rows.push(
    { label: "the server, render cache on (default)", value: loadValue(node) },
    { label: "the server, RENDER_CACHE=off", value: loadValue(uncached) },
    ...(experiment
      ? [
          {
            label: "the server, an experiment running, 5,000 visitors in turn",
            value: loadValue(experiment),
          },
        ]
      : []),
    {
      label: "cached ÷ uncached (req/s)",
      short: "render cache speed-up",
      value: `${(node.requestsPerSecond / uncached.requestsPerSecond).toFixed(2)}×`,
      target: "≥ 2×",
      pass: node.requestsPerSecond >= 2 * uncached.requestsPerSecond,
    },
  );
  if (nginx.skipped) {
    rows.push({
      label: "nginx, same HTML as a static file",
      short: "cached ÷ nginx",
      value: `skipped: ${nginx.skipped}`,
      target: `≥ ${NGINX_SHARE}×`,
      pass: false,
    });
  } else {
    rows.push(
      { label: "nginx, same HTML as a static file", value: loadValue(nginx) },
      {
        label: "the server ÷ nginx (req/s)",
        short: "cached ÷ nginx",
        value: `cached ${ratio(node, nginx)}, uncached ${ratio(uncached, nginx)}`,
        target: `cached ≥ ${NGINX_SHARE}×`,
        pass: node.requestsPerSecond >= NGINX_SHARE * nginx.requestsPerSecond,
      },
      ...(experiment
        ? [
            {
              label: "the server with an experiment ÷ nginx (req/s)",
              short: "cached with an experiment ÷ nginx",
              value: ratio(experiment, nginx),
              target: `≥ ${NGINX_SHARE}×`,
              pass: experiment.requestsPerSecond >= NGINX_SHARE * nginx.requestsPerSecond,
            },
          ]
        : []),
    );
  }
  const [first] = load.fixedRates;
  rows.push({
    section: `Mix of /, /share, /thank-you, POST /api/events at ${first.rate} req/s × ${first.duration} s (open loop), ${load.fixedRates.length} runs`,
  });
  load.fixedRates.forEach((mix, index) => {
    const late = (value) =>
      Number.isFinite(value) ? ms(value) : `> ${mix.timeoutMs} ms (timed out)`;
    const run = `run ${index + 1}`;
    rows.push(
      {
        label: `${run}: answered, p50`,
        value: `${mix.answered} of ${mix.sent}, ${rps(mix.achievedRate)}, ${mix.timeouts} timed out; p50 ${late(mix.p50)}`,
      },
      {
        label: `${run}: latency p99`,
        short: `fixed-rate p99 (${run})`,
        value: `${late(mix.p99)}, max answered ${ms(mix.max)}`,
        target: "≤ 100 ms",
        pass: atMost(mix.p99, 100),
      },
      {
        label: `${run}: errors (4xx, 5xx, timeouts, failures)`,
        short: `fixed-rate errors (${run})`,
        value: String(mix.errors),
        target: "0",
        pass: mix.errors === 0,
      },
    );
  });
  const writes = load.ledgerWrites;
  if (writes) {
    rows.push({
      label:
        "Ledger: writing a lead and its calls, p99 (every lead of the run, /metrics' histogram)",
      short: "ledger write p99",
      value: `≤ ${writes.p99} ms (p50 ≤ ${writes.p50} ms, all ≤ ${writes.max} ms; ${writes.leads} leads)`,
      target: "≤ 2 ms",
      pass: Number.isFinite(writes.p99) && writes.p99 <= 2,
    });
  }
  rows.push({
    label: "Server RSS after load",
    value: load.rss === null ? "n/a" : `${(load.rss / 1048576).toFixed(0)} MiB`,
  });
  const spliced = load.splicedGzip;
  if (spliced) {
    const each = (m) => `${(m.ms * 1000).toFixed(0)} µs, ${kB(m.bytes)}`;
    rows.push(
      { section: "A cached / per response, with its own nonce (in process, 1,000 each)" },
      { label: "spliced gzip (server/spliced-gzip.ts)", value: each(spliced.spliced) },
      { label: "compressed anew: gzip -6", value: each(spliced.gzip) },
      { label: "compressed anew: brotli 4", value: each(spliced.brotli) },
      {
        label: "spliced ÷ gzip anew (time)",
        short: "spliced gzip pays",
        value: `${(spliced.spliced.ms / spliced.gzip.ms).toFixed(3)}×`,
        target: "< 1×",
        pass: spliced.spliced.ms < spliced.gzip.ms,
      },
    );
  }
  return rows;
}

const ms2 = (value) => (typeof value === "number" ? value.toFixed(2) : "n/a");

function breakdownRows(breakdown) {
  if (!breakdown || breakdown.error) {
    return [
      { section: "Where one GET / spends its time" },
      { label: "Profile", value: `not measured: ${breakdown?.error ?? "skipped"}` },
    ];
  }
  const { cached, uncached } = breakdown;
  const rows = [
    {
      section:
        `Where one GET / spends its time: the server under node --cpu-prof, one request at a ` +
        `time, ${cached.requests} cached and ${uncached.requests} uncached, with gzip / without (ms per request)`,
    },
  ];
  for (const mode of [cached, uncached]) {
    const { gzip, identity } = mode.batches;
    const offMain = (batch) =>
      batch.cpuPerRequest === null ? null : batch.cpuPerRequest - batch.mainCpuPerRequest;
    rows.push(
      {
        label: `${mode.name}: time to answer (client side)`,
        value:
          `${ms2(gzip.msPerRequest)} / ${ms2(identity.msPerRequest)} ms` +
          (gzip.failed + identity.failed ? ` (${gzip.failed + identity.failed} not 200)` : ""),
      },
      {
        label: `${mode.name}: server CPU (all threads)`,
        value:
          `${ms2(gzip.cpuPerRequest)} / ${ms2(identity.cpuPerRequest)} ms, off the main thread ` +
          `(zlib, GC helpers) ${ms2(offMain(gzip))} / ${ms2(offMain(identity))}`,
      },
    );
    if (mode.mainThread) {
      const parts = Object.entries(mode.mainThread)
        .sort((a, b) => b[1] - a[1])
        .map(([id, value]) => `${LABELS[id]} ${ms2(value)}`);
      rows.push({
        label: `${mode.name}: main thread CPU by category, gzip`,
        value: `${parts.join(" · ")} ms`,
      });
    } else {
      rows.push({ label: `${mode.name}: main thread CPU by category, gzip`, value: "no profile" });
    }
  }
  return rows;
}

export function buildRows({ lighthouse, bytes, load, handOff }) {
  return [
    ...lighthouseRows(lighthouse),
    ...bytesRows(bytes),
    ...handOffRows(handOff),
    ...loadRows(load),
    ...breakdownRows(load.breakdown),
  ];
}

const result = (row) => (row.pass === undefined ? "" : row.pass ? "pass" : "MISS");

export function renderText(rows) {
  const body = rows.filter((row) => !row.section);
  const width = (pick, header, among = body) =>
    Math.max(header.length, ...among.map((row) => pick(row).length));
  // A long value in a row without a target may run on past the column.
  const targeted = body.filter((row) => row.target !== undefined);
  const w = [
    width((r) => r.label, "Measure") + 2,
    width((r) => r.value, "Value", targeted),
    width((r) => r.target ?? "", "Target"),
  ];
  const line = (a, b, c, d) =>
    `${a.padEnd(w[0])}  ${b.padEnd(w[1])}  ${c.padEnd(w[2])}  ${d}`.trimEnd();
  const out = [line("Measure", "Value", "Target", "Result"), "-".repeat(w[0] + w[1] + w[2] + 12)];
  for (const row of rows) {
    if (row.section) out.push(row.section);
    else out.push(line(`  ${row.label}`, row.value, row.target ?? "", result(row)));
  }
  return out.join("\n");
}

export function renderMarkdown(rows) {
  const out = ["| Measure | Value | Target | Result |", "|---|---|---|---|"];
  for (const row of rows) {
    if (row.section) out.push(`| **${row.section}** | | | |`);
    else out.push(`| ${row.label} | ${row.value} | ${row.target ?? ""} | ${result(row)} |`);
  }
  return out.join("\n");
}
