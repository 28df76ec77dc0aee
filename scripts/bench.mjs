// `npm run bench`: build, serve the production build, measure it (Lighthouse, first-load bytes,
// load against an nginx baseline) and print one table with the targets. Exits 0 when targets are
// missed, since it is a measurement; 1 only when it could not measure.
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { ensureBuild, ensureDependencies, root } from "./lib/prepare.mjs";

const started = Date.now();
const log = (message) => console.log(`› ${message}`);

ensureDependencies();
ensureBuild();

// Imported only now: on a fresh clone Lighthouse and autocannon exist once the step above ran.
const { measureBytes } = await import("./bench/bytes.mjs");
const { runLighthouse } = await import("./bench/lighthouse.mjs");
const { fixedRate, throughput } = await import("./bench/load.mjs");
const { ensureNginx, startNginx } = await import("./bench/nginx.mjs");
const { rssBytes } = await import("./bench/processes.mjs");
const { startServer } = await import("./bench/server.mjs");
const { buildRows, machine, renderMarkdown, renderText } = await import("./bench/table.mjs");

const artifacts = join(root, ".artifacts");

function notesFor({ shareStatus, lighthouse, bytes, load, rows, loadAverages }) {
  // On a shared machine every timing depends on what else runs; say how busy it was.
  const [before, after] = loadAverages.map((value) => value.toFixed(1));
  const index = lighthouse.results["/"]?.mobile?.benchmarkIndex;
  const notes = [
    `Load average ${before} at the start, ${after} at the end` +
      (index ? `; Lighthouse's host benchmark index ${Math.round(index)}.` : "."),
  ];
  if (shareStatus !== 200) {
    notes.push(`/share answered ${shareStatus}: its Lighthouse rows measure that page as it is.`);
  }
  const home = lighthouse.results["/"]?.mobile;
  if (home?.shortfalls.length) {
    const list = home.shortfalls
      .slice(0, 10)
      .map((s) => `${s.id} (${s.category}, ${s.score}${s.display ? `, ${s.display}` : ""})`);
    notes.push(`Lighthouse / mobile, audits below full marks: ${list.join("; ")}.`);
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
  const failed = Object.entries(load.fixedRate.byPath).flatMap(([path, counts]) =>
    Object.entries(counts)
      .filter(([status]) => !(Number(status) >= 200 && Number(status) < 400))
      .map(([status, count]) => `${path} ${status} ×${count}`),
  );
  if (failed.length) notes.push(`Fixed-rate errors: ${failed.join(", ")}.`);
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
  const shareStatus = (await fetch(`${server.url}/share`)).status;

  log("Measuring the first load of /…");
  const { html, bytes } = await measureBytes({ baseUrl: server.url, root });

  const lighthouse = await runLighthouse({
    pages: [
      { path: "/", name: "index", url: `${server.url}/` },
      { path: "/share", name: "share", url: `${server.url}/share` },
    ],
    reportDir: join(artifacts, "lighthouse"),
    log,
  });

  const load = { rssIdle: rssBytes(server.child.pid) };
  log("GET / on remix-serve, 50 connections × 10 s…");
  load.node = await throughput(`${server.url}/`);
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
      load.nginx = await throughput(`${baseline.url}/`);
    } finally {
      await baseline.stop();
    }
  }
  log("The mix at 300 req/s × 30 s…");
  load.fixedRate = await fixedRate(server.url);
  load.rss = rssBytes(server.child.pid);
  await server.child.stop();

  const rows = buildRows({ lighthouse, bytes, load });
  const seconds = Math.round((Date.now() - started) / 1000);
  const header =
    `Darb bench, ${date.toISOString().slice(0, 16).replace("T", " ")} UTC · node ${host.node} · ` +
    `${host.cpu}, ${host.cores} cores · ${lighthouse.chromium} · Lighthouse ${lighthouse.lighthouse}`;
  const loadAverages = [loadAtStart, loadavg()[0]];
  const notes = notesFor({ shareStatus, lighthouse, bytes, load, rows, loadAverages });
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
    `${JSON.stringify({ date: date.toISOString(), machine: host, seconds, shareStatus, lighthouse, bytes, load, rows }, null, 2)}\n`,
  );
  log("Written: .artifacts/bench.md, .artifacts/bench.json, .artifacts/lighthouse/*.json");
}

try {
  await main();
  process.exit(0);
} catch (error) {
  console.error(`\n✖ The benchmark could not finish: ${error?.stack ?? error}`);
  process.exit(1);
}
