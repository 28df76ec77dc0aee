// `npm test`: every check, on a fresh clone too. Pass step names to run only those:
// `npm test -- unit`, `npm test -- e2e`; `npm run test:quick` is `typecheck lint unit`.
//
// Steps that need no build (typecheck, lint, unit) run side by side, and beside the build. The
// steps that serve the build follow it: first `load` alone (the integration files that load the
// machine and compare answers under that load), then `integration` and `e2e` side by side (each
// spends much of its time waiting on servers and a browser; their tests assert behaviour, which
// holds on a busy machine: docs/testing.md). A step run beside others prints its output whole
// when it ends; the closing line sums both runners: `tests: N passed, N failed`.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { findTestBrowser } from "./lib/chromium.mjs";
import { ensureJava } from "./lib/java.mjs";
import { ensureBuild, ensureDependencies, root, runAsync } from "./lib/prepare.mjs";
import { ensureServers } from "./lib/servers.mjs";

const artifacts = join(root, ".artifacts");
const bin = (name) => join(root, "node_modules", ".bin", name);

/** vitest for a step's projects (vitest.config.ts), with its own workers and JSON report. */
const vitest = (step, projects, workers, options) =>
  runAsync(
    bin("vitest"),
    [
      "run",
      ...projects.map((project) => `--project=${project}`),
      `--maxWorkers=${workers}`,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${join(artifacts, `vitest-${step}.json`)}`,
    ],
    options,
  );

// `built`: the step serves the production build, so it waits for it; `alone`: nothing beside it.
const steps = {
  typecheck: { run: (options) => runAsync(bin("tsc"), ["--noEmit"], options) },
  lint: { run: (options) => runAsync(bin("biome"), ["ci", "."], options) },
  // Source only: no build, no browser, no child servers.
  unit: { run: (options) => vitest("unit", ["unit", "unit-isolated"], 2, options) },
  // Floods, faults, slow clients, shutdown under load, replicas: one file at a time takes the
  // machine (tests/support/child-server.ts's load lock), so nothing else runs beside them.
  load: {
    built: true,
    alone: true,
    run: (options) => {
      ensureServers();
      return vitest("load", ["load"], 2, options);
    },
  },
  // The production server over HTTP, the W3C Nu HTML Checker (Java), Redis and nginx. Most of
  // the time goes waiting on child processes, so three files run at once on two cores.
  integration: {
    built: true,
    // Alone, then the browser tests: side by side, the one-second hand-off's tests raced on a
    // busy 2-core machine. Slower (about 12 min), but steady.
    alone: true,
    run: (options) => {
      if (!ensureJava()) return { status: 1, output: "" };
      // Missing, the replica tests fail with a line saying so; the rest still runs.
      ensureServers();
      return vitest("integration", ["integration"], 3, options);
    },
  },
  e2e: {
    built: true,
    run: (options) => {
      let chrome;
      try {
        chrome = findTestBrowser();
      } catch (error) {
        console.error(`✖ ${error.message}`);
        return { status: 1, output: "" };
      }
      return runAsync(bin("playwright"), ["test"], {
        ...options,
        env: { ...process.env, CHROME_PATH: chrome },
      });
    },
  },
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in steps));
if (unknown.length > 0) {
  console.error(
    `Unknown step ${unknown.join(", ")}; the steps are ${Object.keys(steps).join(", ")}.`,
  );
  process.exit(2);
}
const chosen = Object.keys(steps).filter((name) => wanted.length === 0 || wanted.includes(name));

ensureDependencies();
rmSync(artifacts, { recursive: true, force: true });
mkdirSync(artifacts, { recursive: true });

const failed = [];
const took = {};
const seconds = (since) => Math.round((performance.now() - since) / 100) / 10;

async function step(name, { alone }) {
  const started = performance.now();
  if (alone) console.log(`\n━━ ${name} ━━`);
  const { status, output } = await steps[name].run({ buffer: !alone });
  took[name] = seconds(started);
  if (!alone) console.log(`\n━━ ${name} (${took[name]} s) ━━\n${output.trimEnd()}`);
  if (status !== 0) failed.push(name);
}

// The build goes beside the source-only steps, when a later step needs it.
const beside = chosen.filter((name) => !steps[name].built);
const after = chosen.filter((name) => steps[name].built);
const started = performance.now();
await Promise.all([
  ...beside.map((name) => step(name, { alone: beside.length === 1 && after.length === 0 })),
  after.length > 0
    ? (async () => {
        const buildStarted = performance.now();
        await ensureBuild();
        took.build = seconds(buildStarted);
      })()
    : null,
]);
for (const name of after.filter((name) => steps[name].alone)) await step(name, { alone: true });
const together = after.filter((name) => !steps[name].alone);
await Promise.all(together.map((name) => step(name, { alone: together.length === 1 })));

// One plain closing line over both test runners, for people and for CI.
function counts() {
  let passed = 0;
  let failedTests = 0;
  for (const file of readdirSync(artifacts).filter((name) => /^vitest-.*\.json$/.test(name))) {
    const report = JSON.parse(readFileSync(join(artifacts, file), "utf8"));
    passed += report.numPassedTests;
    failedTests += report.numFailedTests;
  }
  const playwright = join(artifacts, "playwright.json");
  if (existsSync(playwright)) {
    const { stats } = JSON.parse(readFileSync(playwright, "utf8"));
    passed += stats.expected + stats.flaky;
    failedTests += stats.unexpected;
  }
  return { passed, failed: failedTests };
}

const total = counts();
const times = Object.entries(took).map(([name, s]) => `${name} ${s} s`);
console.log(`\nTimes: ${times.join(", ")}; in all ${seconds(started)} s.`);
console.log(failed.length ? `Failed steps: ${failed.join(", ")}` : "All steps passed.");
console.log(`tests: ${total.passed} passed, ${total.failed} failed`);
process.exit(failed.length ? 1 : 0);
