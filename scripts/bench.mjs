// `npm run bench`: build, serve the production build, measure it (Lighthouse, first-load bytes,
// load with the render cache on and off against an nginx baseline, the mix at a steady rate three
// times, where one request's time goes) and print one table with the targets. Exits 1 when a
// target is missed or when it could not measure, 0 when every target is met.
//
// `npm run bench -- lighthouse [path…] [--runs N]` runs only Lighthouse on mobile, N times (3)
// on each path (`/`), beside a blank page that shows the machine's share, prints each path's
// main-thread work and long tasks, and keeps every run's trace: a quick look while investigating.
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { ensureBuild, ensureDependencies, root } from "./lib/prepare.mjs";

const started = Date.now();
const log = (message) => console.log(`› ${message}`);

ensureDependencies();
await ensureBuild();

// Imported only now: on a fresh clone Lighthouse and autocannon exist once the step above ran.
const { breakdown } = await import("./bench/breakdown.mjs");
const { measureBytes } = await import("./bench/bytes.mjs");
const { measureHandOff } = await import("./bench/handoff.mjs");
const { runLighthouse } = await import("./bench/lighthouse.mjs");
const { startBlankPage } = await import("./bench/blank-page.mjs");
const { fixedRate, throughput } = await import("./bench/load.mjs");
const { ensureNginx, startNginx } = await import("./bench/nginx.mjs");
const { rssBytes } = await import("./bench/processes.mjs");
const { startServer } = await import("./bench/server.mjs");
const { buildRows, machine, mainThreadRows, renderMarkdown, renderText, runRows } = await import(
  "./bench/table.mjs"
);
const { LABELS } = await import("./bench/profile.mjs");
const { measureSplicedGzip } = await import("./bench/spliced.mjs");

const artifacts = join(root, ".artifacts");

const WARMUP = 100;
/** The mix at a steady rate runs this many times; each must meet its targets. */
const MIX_RUNS = 3;

/** Who takes the time of a cached and an uncached GET /, in a sentence each. */
/**
 * The lead writes' quantiles (ms) from the server's /metrics, after the mix ran: the histogram's
 * bound under which that share of the writes fell (so "p99 ≤ 1 ms"), and the leads counted.
 */
async function ledgerWriteTimes(metricsUrl) {
  const text = await (await fetch(metricsUrl)).text();
  const buckets = [
    ...text.matchAll(/^darb_ledger_lead_write_seconds_bucket\{le="([^"]+)"\} (\d+)$/gm),
  ]
    .map(([, le, count]) => ({ le: Number(le), count: Number(count) }))
    .sort((a, b) => a.le - b.le);
  const total = buckets.at(-1)?.count ?? 0;
  const under = (share) =>
    (buckets.find((bucket) => total > 0 && bucket.count >= share * total)?.le ?? Number.NaN) * 1000;
  const leads = [...text.matchAll(/^darb_leads_total\{[^}]*\} (\d+)$/gm)].reduce(
    (sum, [, count]) => sum + Number(count),
    0,
  );
  return { p50: under(0.5), p99: under(0.99), max: under(1), leads };
}

function breakdownNotes(result) {
  if (!result || result.error) return [];
  return Object.values(result).flatMap((mode) => {
    const { gzip, identity } = mode.batches;
    if (gzip.cpuPerRequest === null) return [];
    const share = (value) => `${Math.round((value / gzip.cpuPerRequest) * 100)}%`;
    const compression = gzip.cpuPerRequest - identity.cpuPerRequest;
    const top = (gzip.profile?.top ?? [])
      .slice(0, 6)
      .map((f) => `${f.name} [${LABELS[f.category]}] ${Math.round(f.share * 100)}%`);
    return [
      `GET / ${mode.name}: ${gzip.cpuPerRequest.toFixed(2)} ms of server CPU per request with ` +
        `gzip, ${identity.cpuPerRequest.toFixed(2)} ms without, so gzip costs ` +
        `${compression.toFixed(2)} ms (${share(compression)})` +
        (top.length ? `; the main thread's biggest self times: ${top.join(", ")}.` : "."),
    ];
  });
}

function notesFor({ statuses, lighthouse, bytes, load, rows, loadAverages }) {
  // On a shared machine every timing depends on what else runs; say how busy it was.
  const [before, after] = loadAverages.map((value) => value.toFixed(1));
  const index = lighthouse.results["/"]?.mobile?.benchmarkIndex;
  const notes = [
    `Load average ${before} at the start, ${after} at the end` +
      (index ? `; Lighthouse's host benchmark index ${Math.round(index)}.` : "."),
  ];
  for (const [path, status] of Object.entries(statuses)) {
    if (status !== 200) {
      notes.push(`${path} answered ${status}: its Lighthouse rows measure that page as it is.`);
    }
  }
  const home = lighthouse.results["/"]?.mobile;
  if (home?.shortfalls.length) {
    const list = home.shortfalls
      .slice(0, 10)
      .map((s) => `${s.id} (${s.category}, ${s.score}${s.display ? `, ${s.display}` : ""})`);
    notes.push(`Lighthouse / mobile, audits below full marks: ${list.join("; ")}.`);
  }
  for (const [path, byForm] of Object.entries(lighthouse.results)) {
    // The blank page measures the machine; its SEO is nobody's concern.
    if (path === "blank") continue;
    for (const [formFactor, run] of Object.entries(byForm)) {
      const seo = run.shortfalls.filter((s) => s.category === "seo").map((s) => s.id);
      if (seo.length) notes.push(`SEO ${path} ${formFactor}, audits failed: ${seo.join(", ")}.`);
    }
  }
  const biggest = bytes.files
    .filter((file) => file.kind === "framework" || file.kind === "app")
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, 3)
    .map((file) => {
      const made = file.contents?.map((c) => `${c.name} ${Math.round(c.share * 100)}%`).join(", ");
      return `${file.href} ${(file.gzip / 1000).toFixed(1)} kB (${file.kind}${made ? `: ${made}` : ""})`;
    });
  notes.push(`Biggest scripts (gzip): ${biggest.join("; ")}.`);
  const failed = load.fixedRates.flatMap((run, index) =>
    Object.entries(run.byPath).flatMap(([path, counts]) =>
      Object.entries(counts)
        .filter(([status]) => !(Number(status) >= 200 && Number(status) < 400))
        .map(([status, count]) => `run ${index + 1}: ${path} ${status} ×${count}`),
    ),
  );
  if (failed.length) notes.push(`Fixed-rate errors: ${failed.join(", ")}.`);
  notes.push(...breakdownNotes(load.breakdown));
  if (load.rssIdle !== null) {
    notes.push(`Server RSS before load: ${(load.rssIdle / 1048576).toFixed(0)} MiB.`);
  }
  const missed = rows.filter((row) => row.pass === false).map((row) => row.short ?? row.label);
  notes.push(missed.length ? `Missed targets: ${missed.join(", ")}.` : "Every target met.");
  return notes;
}

async function main() {
  mkdirSync(artifacts, { recursive: true });
  const host = machine();
  const loadAtStart = loadavg()[0];
  const date = new Date();

  log("Starting the production server…");
  const server = await startServer({ root, logPath: join(artifacts, "bench-server.log") });
  const statuses = {};
  for (const path of ["/share", "/sitemap"]) {
    statuses[path] = (await fetch(`${server.url}${path}`)).status;
  }

  log("Measuring the first load of /…");
  const { html, bytes } = await measureBytes({ baseUrl: server.url, root });

  const blank = await startBlankPage();
  let lighthouse;
  try {
    lighthouse = await runLighthouse({
      pages: [
        { path: "/", name: "index", url: `${server.url}/` },
        { path: "/share", name: "share", url: `${server.url}/share` },
        // Only its SEO score is wanted: one mobile run is enough.
        { path: "/sitemap", name: "sitemap", url: `${server.url}/sitemap`, mobileRuns: 1 },
        // What TBT the machine alone makes in this run (scripts/bench/blank-page.mjs).
        { path: "blank", name: "blank", url: blank.url, desktop: false },
      ],
      reportDir: join(artifacts, "lighthouse"),
      log,
    });
  } finally {
    await blank.stop();
  }

  let handOff;
  try {
    handOff = await measureHandOff({ baseUrl: server.url, log });
  } catch (error) {
    // A figure, not a target: the rest of the table stands without it.
    handOff = { error: String(error?.message ?? error) };
  }

  const load = { rssIdle: rssBytes(server.child.pid), warmup: WARMUP };
  log("GET / on the server, 50 connections × 10 s…");
  load.node = await throughput(`${server.url}/`, { warmup: WARMUP });
  // The same page rendered on every request, by a second server (the first one idles meanwhile).
  const uncached = await startServer({
    root,
    renderCache: "off",
    logPath: join(artifacts, "bench-server-uncached.log"),
  });
  try {
    log("GET / on the server with RENDER_CACHE=off, 50 connections × 10 s…");
    load.uncached = await throughput(`${uncached.url}/`, { warmup: WARMUP });
  } finally {
    await uncached.child.stop();
  }
  // The same page with an A/B test of its hero running, for 5,000 visitors in turn: each request
  // works out its visitor's variant, and each visitor's first view is counted.
  const experimenting = await startServer({
    root,
    experimentsFile: "experiments.example.json",
    logPath: join(artifacts, "bench-server-experiment.log"),
  });
  try {
    log("GET / on the server with an experiment running, 5,000 visitors, 50 connections × 10 s…");
    load.experiment = await throughput(`${experimenting.url}/`, {
      warmup: WARMUP,
      visitors: 5000,
    });
  } finally {
    await experimenting.child.stop();
  }
  const nginx = ensureNginx(log);
  if (nginx.skipped) {
    load.nginx = { skipped: nginx.skipped };
  } else {
    const baseline = await startNginx({
      path: nginx.path,
      html,
      publicDir: join(root, "public"),
      logPath: join(artifacts, "bench-nginx.log"),
    });
    try {
      log("GET / on nginx, 50 connections × 10 s…");
      load.nginx = await throughput(`${baseline.url}/`, { warmup: WARMUP });
    } finally {
      await baseline.stop();
    }
  }
  load.fixedRates = [];
  for (let run = 1; run <= MIX_RUNS; run++) {
    log(`The mix at 300 req/s × 30 s, run ${run} of ${MIX_RUNS}…`);
    load.fixedRates.push(await fixedRate(server.url));
  }
  load.ledgerWrites = await ledgerWriteTimes(server.metricsUrl);
  load.rss = rssBytes(server.child.pid);
  await server.child.stop();

  log("A cached page's gzip: spliced, or compressed anew for each response…");
  load.splicedGzip = await measureSplicedGzip({ root, html });

  const profiles = join(artifacts, "bench-prof");
  mkdirSync(profiles, { recursive: true });
  try {
    load.breakdown = await breakdown({ root, dir: profiles, log });
  } catch (error) {
    // The rest of the table stands without it.
    load.breakdown = { error: String(error?.message ?? error) };
  }

  const rows = buildRows({ lighthouse, bytes, load, handOff });
  const seconds = Math.round((Date.now() - started) / 1000);
  const header =
    `Darb bench, ${date.toISOString().slice(0, 16).replace("T", " ")} UTC · node ${host.node} · ` +
    `${host.cpu}, ${host.cores} cores, load average ${loadAtStart.toFixed(1)} at the start · ` +
    `${lighthouse.chromium} · Lighthouse ${lighthouse.lighthouse}`;
  const loadAverages = [loadAtStart, loadavg()[0]];
  const notes = notesFor({ statuses, lighthouse, bytes, load, rows, loadAverages });
  const footer = `Run time: ${Math.floor(seconds / 60)} min ${seconds % 60} s.`;

  console.log(
    `\n${header}\n\n${renderText(rows)}\n\n${notes.map((n) => `- ${n}`).join("\n")}\n${footer}`,
  );
  writeFileSync(
    join(artifacts, "bench.md"),
    `${header}\n\n${renderMarkdown(rows)}\n\n${notes.map((n) => `- ${n}`).join("\n")}\n\n${footer}\n`,
  );
  writeFileSync(
    join(artifacts, "bench.json"),
    `${JSON.stringify({ date: date.toISOString(), machine: host, seconds, statuses, lighthouse, bytes, handOff, load, rows }, null, 2)}\n`,
  );
  log(
    "Written: .artifacts/bench.md, .artifacts/bench.json, .artifacts/lighthouse/*.json, " +
      ".artifacts/bench-prof/*.cpuprofile",
  );
  return rows.filter((row) => row.pass === false).map((row) => row.short ?? row.label);
}

/** `lighthouse [path…] [--runs N]`: the paths and the number of runs; null for the whole bench. */
function quickArguments(args) {
  if (args[0] !== "lighthouse") return null;
  const paths = [];
  let runs = 3;
  for (let i = 1; i < args.length; i++) {
    if (args[i] === "--runs") runs = Number(args[++i]);
    else if (args[i].startsWith("--runs=")) runs = Number(args[i].slice(7));
    else paths.push(args[i].startsWith("/") ? args[i] : `/${args[i]}`);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs wants a whole number ≥ 1");
  return { paths: paths.length ? paths : ["/"], runs };
}

/** Lighthouse only, on mobile: each path and a blank page in the same run, with every trace. */
async function quick({ paths, runs }) {
  const loadAtStart = loadavg()[0];
  const date = new Date();
  const reportDir = join(artifacts, "lighthouse", "quick");
  mkdirSync(reportDir, { recursive: true });
  const server = await startServer({ root, logPath: join(artifacts, "bench-server.log") });
  const blank = await startBlankPage();
  let lighthouse;
  try {
    const pages = paths.map((path) => ({
      path,
      name: path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "index",
      url: `${server.url}${path}`,
      desktop: false,
    }));
    pages.push({ path: "blank", name: "blank", url: blank.url, desktop: false });
    lighthouse = await runLighthouse({ pages, mobileRuns: runs, reportDir, log, saveTraces: true });
  } finally {
    await blank.stop();
    await server.child.stop();
  }
  const rows = [];
  for (const [path, { mobile }] of Object.entries(lighthouse.results)) {
    const { scores, metrics } = mobile;
    rows.push(
      { section: `${path} on mobile, ${runs} run${runs > 1 ? "s" : ""}` },
      { label: "Performance, each run", value: mobile.runs.join(", ") },
      {
        label: "median run: P/A/BP/SEO",
        value: [scores.performance, scores.accessibility, scores["best-practices"], scores.seo]
          .map((v) => v ?? "n/a")
          .join(" / "),
      },
      {
        label: "median run: FCP/LCP/TBT/CLS",
        value: [metrics.fcp, metrics.lcp, metrics.tbt]
          .map((v) => (typeof v === "number" ? `${Math.round(v)} ms` : "n/a"))
          .concat(typeof metrics.cls === "number" ? metrics.cls.toFixed(3) : "n/a")
          .join(" / "),
      },
      ...(mobile.runtimeError
        ? [{ label: "Lighthouse's runtime error", value: mobile.runtimeError }]
        : []),
      { label: "host benchmark index", value: String(Math.round(mobile.benchmarkIndex ?? 0)) },
      ...runRows(path, mobile),
      ...mainThreadRows(path, mobile),
    );
  }
  console.log(
    `\nDarb bench, Lighthouse only, ${date.toISOString().slice(0, 16).replace("T", " ")} UTC · ` +
      `load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end · ` +
      `${lighthouse.chromium} · Lighthouse ${lighthouse.lighthouse}\n\n${renderText(rows)}\n`,
  );
  log(`Written: ${reportDir}/*.json (median reports) and *.trace.json (every run's trace)`);
}

try {
  const quickRun = quickArguments(process.argv.slice(2));
  if (quickRun) {
    await quick(quickRun);
    process.exit(0);
  }
  const missed = await main();
  if (missed.length > 0) {
    console.error(`\n✖ Targets missed: ${missed.join(", ")}.`);
    process.exit(1);
  }
  process.exit(0);
} catch (error) {
  console.error(`\n✖ The benchmark could not finish: ${error?.stack ?? error}`);
  process.exit(1);
}
