// `npm test`: every check, in order, on a fresh clone too. Pass step names to run only those:
// `npm test -- unit`, `npm test -- e2e`. Steps: typecheck, lint, unit, e2e.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { findChromium } from "./lib/chromium.mjs";
import { ensureJava } from "./lib/java.mjs";
import { ensureBuild, ensureDependencies, root, run } from "./lib/prepare.mjs";
import { ensureServers } from "./lib/servers.mjs";

const artifacts = join(root, ".artifacts");
const bin = (name) => join(root, "node_modules", ".bin", name);

const steps = {
  typecheck: () => run(bin("tsc"), ["--noEmit"]),
  lint: () => run(bin("biome"), ["ci", "."]),
  // Unit and integration tests; the integration tests serve the production build and check it
  // with the W3C Nu HTML Checker, which needs Java, and run replicas behind Redis and nginx.
  unit: async () => {
    await ensureBuild();
    if (!ensureJava()) return 1;
    // Missing, the replica tests fail with a line saying so; the rest still runs.
    ensureServers();
    return run(bin("vitest"), [
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${join(artifacts, "vitest.json")}`,
    ]);
  },
  e2e: async () => {
    await ensureBuild();
    let chrome;
    try {
      chrome = findChromium();
    } catch (error) {
      console.error(`✖ ${error.message}`);
      return 1;
    }
    return run(bin("playwright"), ["test"], { env: { ...process.env, CHROME_PATH: chrome } });
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

ensureDependencies();
rmSync(artifacts, { recursive: true, force: true });
mkdirSync(artifacts, { recursive: true });

const failed = [];
for (const [name, step] of Object.entries(steps)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n━━ ${name} ━━`);
  if ((await step()) !== 0) failed.push(name);
}

// One plain closing line over both test runners, for people and for CI.
function counts() {
  let passed = 0;
  let failedTests = 0;
  const vitest = join(artifacts, "vitest.json");
  if (existsSync(vitest)) {
    const report = JSON.parse(readFileSync(vitest, "utf8"));
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
console.log(failed.length ? `\nFailed steps: ${failed.join(", ")}` : "\nAll steps passed.");
console.log(`tests: ${total.passed} passed, ${total.failed} failed`);
process.exit(failed.length ? 1 : 0);
