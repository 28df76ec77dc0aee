// `npm run bench` says what Lighthouse's long tasks are made of by reading its trace
// (scripts/bench/trace-tasks.mjs, through Lighthouse's own trace processor). Here that reading
// runs on a real Chromium trace of the built server's landing page, recorded with Lighthouse's
// categories, so a Lighthouse or Chromium upgrade that breaks it fails here, not in a bench run.
import { type Browser, chromium, devices } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { traceTasks } from "../../scripts/bench/trace-tasks.mjs";
import { CHROMIUM_FLAGS, findChromium } from "../../scripts/lib/chromium.mjs";
import { startBuiltServer } from "../support/server";

/** What Lighthouse 12 records (lighthouse/core/gather/gatherers/trace.js), screenshots aside. */
const LIGHTHOUSE_CATEGORIES = [
  "-*",
  "disabled-by-default-lighthouse",
  "loading",
  "v8",
  "v8.execute",
  "blink.user_timing",
  "blink.console",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.stack",
  "disabled-by-default-devtools.timeline.frame",
  "latencyInfo",
];

let site: Awaited<ReturnType<typeof startBuiltServer>>;
let browser: Browser;

beforeAll(async () => {
  site = await startBuiltServer({ SITE_URL: "https://darb.example" });
  browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

it("reads the main thread's tasks, their CPU time and the threads beside it from a trace of /", async () => {
  const context = await browser.newContext({ ...devices["Pixel 7"] });
  const page = await context.newPage();
  await page.goto("about:blank");
  await browser.startTracing(page, { categories: LIGHTHOUSE_CATEGORIES });
  await page.goto(`${site.origin}/`);
  await page.waitForFunction(() => "__remixRouter" in window);
  const trace = JSON.parse((await browser.stopTracing()).toString());
  await context.close();

  const read = traceTasks(trace, { minMs: 0 });
  expect(read.fcp).toBeGreaterThan(0);
  // Wall time is at least the CPU time the thread had in it, task by task and in all (the two
  // come from different clocks: a tiny task's may differ by a fraction of a millisecond either
  // way on a busy machine: 0.61 ms of CPU in 0.41 ms of wall was seen in a fresh clone's run).
  expect(read.cpu).toBeGreaterThan(0);
  expect(read.wall).toBeGreaterThanOrEqual(read.cpu * 0.99);
  for (const task of read.long) expect(task.cpu).toBeLessThanOrEqual(task.wall * 1.01 + 0.5);
  // What the page does shows by name: the parser, a layout counted in objects, the scripts.
  const parts = read.long.flatMap((task) => task.parts.map((part) => part.label));
  expect(parts).toContain("parse HTML");
  expect(parts.some((label) => /^layout \(\d+ objects\)$/.test(label))).toBe(true);
  expect(parts.some((label) => label.startsWith("script /build/"))).toBe(true);
  // Work after the first paint: the page starts its JavaScript only then.
  expect(read.long.some((task) => task.startTime >= (read.fcp ?? 0))).toBe(true);
  expect(read.neighbours.map((n) => n.label)).toEqual([
    "the compositor (Viz)",
    "the browser's main thread",
    "the renderer's workers (raster, script streaming)",
  ]);
  expect(read.neighbours.find((n) => n.label === "the browser's main thread")?.ms).toBeGreaterThan(
    0,
  );
}, 60_000);
