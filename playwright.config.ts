import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, findTestBrowser } from "./scripts/lib/chromium.mjs";
import { SAMPLE_COMPANY } from "./tests/e2e/company";

// One free loopback port for the whole run; workers inherit it through the environment.
process.env.E2E_PORT ||= execFileSync(process.execPath, [
  "-e",
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
]).toString();

const port = Number(process.env.E2E_PORT);
export const baseURL = `http://127.0.0.1:${port}`;
export const serverLog = ".artifacts/e2e-server.log";

const chromium = {
  executablePath: findTestBrowser(),
  args: CHROMIUM_FLAGS,
};

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: ".artifacts/test-results",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Three on two cores: each test waits on its page (network, timers, the hand-off) much of
  // its time, and a third hides those waits: the step took 181 s instead of 203.
  workers: 3,
  timeout: 30_000,
  reporter: [["list"], ["json", { outputFile: ".artifacts/playwright.json" }]],
  use: {
    baseURL,
    launchOptions: chromium,
    // A trace records every action of every test to keep the failing ones': a quarter of the
    // run's CPU. A failure still leaves its screenshot and the page's snapshot (error-context.md);
    // E2E_TRACE=1 records traces again, to replay a failure step by step.
    trace: process.env.E2E_TRACE ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "mobile", use: { ...devices["Pixel 7"], defaultBrowserType: "chromium" } },
    // Desktop Chrome's profile, not "HeadlessChrome", which the server rightly takes for a bot.
    // Only the tests about the wide layout ("@wide" in their titles: the header, section
    // anchors, stand-in heights, axe, the plans and countdown, the share popup) run here too;
    // the rest behave alike at any width, and the phone is what visitors use.
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } },
      grep: /@wide/,
      // What only a phone-sized screen has (the collapsed menu).
      grepInvert: /@phone/,
    },
  ],
  webServer: {
    // The production build, as `npm start` serves it, with the sample settings. Without GA4
    // settings it writes each analytics event as a JSON line; the tests read them from the log.
    command: `mkdir -p .artifacts && node server-build/index.js > ${serverLog}`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: baseURL,
      // Each test poses as its own visitor behind one proxy (see tests/e2e/fixtures.ts).
      TRUST_PROXY: "1",
      // A lead ledger of this run's own.
      DATA_DIR: mkdtempSync(join(tmpdir(), "darb-e2e-data-")),
      // The company behind the site, as production sets it: the footer's and the legal pages'.
      ...SAMPLE_COMPANY,
    },
  },
});
