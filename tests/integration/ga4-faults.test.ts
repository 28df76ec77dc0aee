// GA4 slow (10 s), failing (500) or gone (connection refused) while visitors load pages and
// leave leads: pages as fast as with GA4 healthy, memory flat, every lost event counted, no
// unhandled rejection, and the process still serving. Against the real server process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutboxStats } from "~/analytics/outbox.server";
import {
  type ChildServer,
  crashSigns,
  eachRequestWith,
  type FakeGa,
  type GaMode,
  type Load,
  load,
  startChildServer,
  startFakeGa,
  visitorAddress,
  withLoadLock,
} from "../support/child-server";
import { ANDROID_CHROME } from "../support/user-agents";

const WINDOW_S = 3;
/** Fixed request rates, well under what the server can do, so latency is service time. */
const RATE = 30;

let ga: FakeGa;
let site: ChildServer;

/** Every lead from a new visitor (address), so each one is recorded and goes to the queue. */
const newVisitor = eachRequestWith("x-forwarded-for", visitorAddress);

type Window = { mode: GaMode; home: Load; lead: Load };

/** GET / and /thank-you side by side, at fixed rates, for one window. */
async function measure(mode: GaMode): Promise<Window> {
  await ga.setMode(mode);
  const headers = { "user-agent": ANDROID_CHROME, "x-forwarded-for": "192.0.2.1" };
  const [home, lead] = await Promise.all([
    load({
      url: `${site.origin}/`,
      headers,
      connections: 4,
      overallRate: RATE,
      duration: WINDOW_S,
    }),
    load({
      url: `${site.origin}/thank-you?cta=whatsapp&source=test`,
      headers,
      connections: 4,
      overallRate: RATE,
      duration: WINDOW_S,
      requests: [newVisitor],
    }),
  ]);
  return { mode, home, lead };
}

/**
 * How much worse a faulty window may be than the healthy ones around it: twice, or 50 ms more,
 * whichever is larger. A page that waited on GA4 would be 2 s (the call timeout) or 10 s worse;
 * this machine's noise (other work on 2 cores) moves p99 by tens of ms between windows.
 */
const allowed = (healthy: number) => Math.max(2 * healthy, healthy + 50);

function worse(faulty: Window, healthy: Window[]): string[] {
  const found: string[] = [];
  for (const page of ["home", "lead"] as const) {
    for (const stat of ["p50", "p99"] as const) {
      const reference = Math.max(...healthy.map((window) => window[page][stat]));
      const value = faulty[page][stat];
      if (value > allowed(reference))
        found.push(`${page} ${stat} ${value} ms > allowed ${allowed(reference)} ms`);
    }
  }
  return found;
}

const row = (window: Window) =>
  `${window.mode.padEnd(8)} / p50 ${window.home.p50} p99 ${window.home.p99} (n ${window.home.requests})` +
  ` | /thank-you p50 ${window.lead.p50} p99 ${window.lead.p99} (n ${window.lead.requests})`;

beforeAll(async () => {
  ga = await startFakeGa();
  site = await startChildServer({
    GA_MEASUREMENT_ID: "G-TEST12345",
    GA_API_SECRET: "test_secret_1",
    GA_MP_ENDPOINT: ga.endpoint,
    // A container-sized old space, so RSS tracks what is really kept (see flood.test.ts).
    NODE_OPTIONS: "--max-old-space-size=96",
  });
}, 30_000);

afterAll(async () => {
  await site?.kill();
  await ga?.close();
});

describe("GA4 faults under load", () => {
  const windows: Window[] = [];
  let baseline = 0;

  it("serves pages as fast with GA4 slow, failing or refusing as with GA4 healthy", async () => {
    const failures: string[] = [];
    await withLoadLock(async () => {
      // Warm up (JIT, caches, heap) with GA4 healthy, then take the memory baseline.
      await measure("ok");
      await measure("ok");
      baseline = site.rssMb();
      // Healthy and faulty windows alternate, so that whatever else this machine is doing
      // lands on both; each fault is compared with the healthy windows beside it. GA4 is still
      // refusing at the end, when the last test stops the server.
      let previous = await measure("ok");
      windows.push(previous);
      for (const mode of ["slow", "fail", "refused"] as const) {
        let faulty = await measure(mode);
        const next = mode === "refused" ? null : await measure("ok");
        windows.push(faulty, ...(next ? [next] : []));
        let found = worse(faulty, next ? [previous, next] : [previous]);
        if (found.length > 0) {
          // One second chance against a noisy neighbour: measure the pair again.
          const again = await measure("ok");
          faulty = await measure(mode);
          windows.push(again, faulty);
          found = worse(faulty, [again]);
        }
        if (found.length > 0) failures.push(`${mode}: ${found.join(", ")}`);
        expect(site.alive(), `server died with GA4 ${mode}: ${site.stderr()}`).toBe(true);
        if (next) previous = next;
      }
    });
    console.log(
      `GA4 faults, ${RATE} req/s per page, ${WINDOW_S} s windows:\n${windows.map(row).join("\n")}`,
    );
    for (const window of windows) {
      expect(window.home.errors + window.lead.errors).toBe(0);
      expect(window.home.statuses).toEqual({ "200": window.home.requests });
      expect(window.lead.statuses).toEqual({ "200": window.lead.requests });
      // A page that stalled would also fall far behind the rate (a 2 s wait on GA4 would allow
      // 6 in a window); half is what a busy machine still manages.
      expect(window.home.requests).toBeGreaterThan(RATE * WINDOW_S * 0.5);
      expect(window.lead.requests).toBeGreaterThan(RATE * WINDOW_S * 0.5);
    }
    expect(failures).toEqual([]);
  }, 150_000);

  it("kept memory flat", () => {
    const rss = site.rssMb();
    console.log(
      `GA4 faults: RSS after warm-up ${baseline.toFixed(1)} MB, after the faults ${rss.toFixed(1)} MB`,
    );
    expect(rss).toBeLessThan(baseline * 1.5 + 30);
  });

  it("logged no unhandled rejection and still answers", async () => {
    expect(crashSigns(site.stderr())).toEqual([]);
    expect(site.alive()).toBe(true);
    expect((await fetch(`${site.origin}/healthz`)).status).toBe(200);
  });

  it("counted every event: sent as GA4 acknowledged, the rest still owed, none lost", async () => {
    expect(ga.mode()).toBe("refused");
    const gaCounts = ga.counts();
    const signalled = performance.now();
    process.kill(site.pid, "SIGTERM");
    const exit = await site.exited;
    const line = await site.waitForLine((entry) => entry.type === "analytics_shutdown", 1000);
    console.log(
      `GA4 faults: ${JSON.stringify(line)}; GA4 saw ${JSON.stringify(gaCounts)}; ` +
        `exit ${exit.code} after ${(exit.at - signalled).toFixed(0)} ms`,
    );
    const stats = line as OutboxStats;
    expect(exit.code).toBe(0);
    expect(stats.recorded).toBeGreaterThan(0);
    // Nothing is given up: refused and failing calls are owed until GA4 takes them, and slow
    // ones (timed out with GA4 holding their body) wait for a lead's one more try; all of it
    // stays in the ledger for the next start (decision 016).
    expect(stats.dropped).toBe(0);
    expect(stats.queued).toBeGreaterThan(0);
    expect(stats.sent + stats.dropped + stats.unconfirmed + stats.queued).toBe(stats.recorded);
    // The server counts as sent exactly what GA4 acknowledged in time; nothing twice.
    expect(stats.sent).toBe(ga.counts().acknowledged);
  }, 20_000);
});
