import { execFileSync } from "node:child_process";
import { defineConfig, devices } from "@playwright/test";

// One free loopback port for the whole run; workers inherit it through the environment.
process.env.E2E_PORT ||= execFileSync(process.execPath, [
  "-e",
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
]).toString();

const port = Number(process.env.E2E_PORT);
export const baseURL = `http://127.0.0.1:${port}`;

const chromium = {
  executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: ".artifacts/test-results",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  reporter: [["list"], ["json", { outputFile: ".artifacts/playwright.json" }]],
  use: {
    baseURL,
    launchOptions: chromium,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "mobile", use: { ...devices["Pixel 7"], defaultBrowserType: "chromium" } },
    { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    // The production build, as `npm start` serves it, with the sample settings.
    command: "node node_modules/@remix-run/serve/dist/cli.js build/index.js",
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
    },
  },
});
