// The deployment of deploy/: Debian's redis-server, two replicas of the production server
// (`node server-build/index.js`, REDIS_URL and TRUST_PROXY=1) and Debian's nginx running
// deploy/nginx/darb.conf in front, all children of this test on loopback. Visitors are distinct
// loopback addresses (Node's localAddress) on the same iPhone, as most of a campaign's audience
// is. What is checked is what an operator sees: the leads the replicas record (their analytics
// lines), their log and their closing stats.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BATCHES_PER_ADDRESS, LEADS_PER_ADDRESS } from "~/leads/limits.server";
import {
  type ChildServer,
  crashSigns,
  holdLoadLock,
  sleep,
  startChildServer,
} from "../support/child-server";
import { type NginxProxy, REPLICA_SETTINGS, startNginx } from "../support/nginx-proxy";
import { type RawAnswer, rawRequest } from "../support/raw-http";
import { type RedisServer, startRedis } from "../support/redis-server";
import { IPHONE_SAFARI_18 } from "../support/user-agents";

const BATCH = JSON.stringify({ events: [{ name: "page_view", params: { page_location: "/" } }] });

/** One request from `localAddress` on a connection of its own, to `origin` (nginx unless told). */
const visit = (
  localAddress: string,
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    origin?: string;
  } = {},
) =>
  rawRequest(options.origin ?? proxy.origin, path, {
    method: options.method,
    body: options.body,
    localAddress,
    headers: { "user-agent": IPHONE_SAFARI_18, ...options.headers },
    agent: false,
  });

const postBatch = (localAddress: string, headers: Record<string, string> = {}) =>
  visit(localAddress, "/api/events", {
    method: "POST",
    headers: { "content-type": "application/json", "sec-fetch-site": "same-origin", ...headers },
    body: BATCH,
  });

let redis: RedisServer;
let replicas: ChildServer[] = [];
let proxy: NginxProxy;

const events = (name: string, source: (value: string) => boolean) =>
  replicas.map(
    (replica) =>
      replica.analytics.filter(
        (event) => event.name === name && source(String(event.params.source)),
      ).length,
  );
const sum = (counts: number[]) => counts.reduce((total, count) => total + count, 0);
const is = (source: string) => (value: string) => value === source;
const stateLines = (replica: ChildServer) =>
  replica.lines.filter((line) => line.type === "shared_state").map((line) => line.state);
/** Requests to `path` the replicas have logged (LOG_REQUESTS=1), all together. */
const logged = (path: string, status?: number) =>
  sum(
    replicas.map(
      (replica) =>
        replica.lines.filter(
          (line) =>
            line.type === "request" &&
            line.path === path &&
            (status === undefined || line.status === status),
        ).length,
    ),
  );

async function until(check: () => boolean, what: string, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
}

/**
 * A visitor's `times` taps on the same lead link, one after another, through nginx: how many of
 * them each replica answered, and how many leads they added.
 */
async function reloads(address: string, source: string, times = 3) {
  const viewsBefore = events("page_view", is(source));
  const leadsBefore = sum(events("generate_lead", is(source)));
  const answers: RawAnswer[] = [];
  for (let n = 0; n < times; n++)
    answers.push(await visit(address, `/thank-you?cta=whatsapp&source=${source}`));
  expect(answers.map((answer) => answer.status)).toEqual(Array(times).fill(200));
  for (const answer of answers) expect(answer.body).toContain("https://wa.me/");
  // Without JavaScript (no sid) each answer also records the page's view: all are in once
  // every view is, since the lead's events are written before its view's response.
  const added = () =>
    events("page_view", is(source)).map((count, i) => count - (viewsBefore[i] ?? 0));
  await until(() => sum(added()) === times, `${source}: views`);
  return { views: added(), leads: sum(events("generate_lead", is(source))) - leadsBefore };
}

/** Ends the hold on the machine's load lock (tests/support/child-server.ts) this file takes. */
let release = () => {};

beforeAll(async () => {
  // Latencies and one-line-per-outage are measured here: no load test runs beside this file.
  release = await holdLoadLock();
  const started = performance.now();
  redis = await startRedis();
  replicas = await Promise.all(
    [1, 2].map(() =>
      startChildServer({ ...REPLICA_SETTINGS, REDIS_URL: redis.url, LOG_REQUESTS: "1" }),
    ),
  );
  await Promise.all(
    replicas.map((replica) => replica.waitForLine((line) => line.type === "shared_state")),
  );
  proxy = await startNginx(replicas.map((replica) => replica.origin));
  console.log(`topology up in ${Math.round(performance.now() - started)} ms`);
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all(replicas.map((replica) => replica.kill()));
  await redis?.close();
  release();
});

describe("two replicas behind nginx, sharing Redis", { timeout: 30_000 }, () => {
  it("starts with both replicas on Redis, and nginx passing the app's own headers", async () => {
    expect(replicas.map(stateLines)).toEqual([["up"], ["up"]]);
    const page = await visit("127.0.4.250", "/");
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toMatch(/script-src 'nonce-/);
    expect(page.headers["x-frame-options"]).toBe("DENY");
    // nginx names no version.
    expect(page.headers.server ?? "").not.toMatch(/\d/);
  });

  it("counts a visitor's three reloads of /thank-you, spread over both replicas, as one lead", async () => {
    const { views, leads } = await reloads("127.0.4.1", "reloads");
    // Round robin: both replicas answered this visitor.
    expect(views.every((count) => count >= 1)).toBe(true);
    expect(leads).toBe(1);
    // Someone else on the same phone model is another lead.
    expect((await reloads("127.0.4.2", "reloads", 1)).leads).toBe(1);
  });

  it("holds one address flooding /api/events to one limit across both replicas, whatever X-Forwarded-For it writes", async () => {
    const flooding = "127.0.5.1";
    const total = BATCHES_PER_ADDRESS.capacity + 100;
    const statuses: number[] = [];
    const started = performance.now();
    for (let n = 0; n < total; n += 25) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(25, total - n) }, (_, k) =>
          postBatch(flooding, {
            // Another phone and another forwarded address every time: still one address.
            "user-agent": `${IPHONE_SAFARI_18} flood/${n + k}`,
            "x-forwarded-for": `10.9.${(n + k) >> 8}.${(n + k) & 255}`,
          }),
        ),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    const earned = ((performance.now() - started) / 1000) * BATCHES_PER_ADDRESS.refillPerSecond;
    const accepted = statuses.filter((status) => status === 204).length;
    console.log(
      `flood through nginx: ${accepted} of ${total} accepted in ${Math.round(performance.now() - started)} ms`,
    );
    expect([...new Set(statuses)].sort()).toEqual([204, 429]);
    // One address's burst of 300 and what it earned back meanwhile, not 300 per replica.
    expect(accepted).toBeGreaterThanOrEqual(BATCHES_PER_ADDRESS.capacity);
    expect(accepted).toBeLessThanOrEqual(BATCHES_PER_ADDRESS.capacity + Math.ceil(earned) + 2);
    // Both replicas refused some: each knew what the other had let through.
    await until(() => logged("/api/events") >= total, "every batch logged");
    for (const replica of replicas) {
      const refused = replica.lines.filter(
        (line) => line.type === "request" && line.path === "/api/events" && line.status === 429,
      );
      expect(refused.length).toBeGreaterThan(10);
    }
    // The next address is untouched.
    expect((await postBatch("127.0.5.2")).status).toBe(204);
  });

  it("caps one address's leads once across both replicas, while every visitor gets the hand-off", async () => {
    const flooding = "127.0.6.1";
    const tries = LEADS_PER_ADDRESS.capacity + 20;
    const before = logged("/thank-you");
    const answers: RawAnswer[] = [];
    for (let n = 0; n < tries; n += 10) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(10, tries - n) }, (_, k) =>
            visit(flooding, `/thank-you?cta=whatsapp&source=cap-${n + k}`, {
              headers: { "user-agent": IPHONE_SAFARI_18.replace("15E148", `15E${1000 + n + k}`) },
            }),
          ),
        )),
      );
    }
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.every((answer) => answer.body.includes("https://wa.me/"))).toBe(true);
    // A replica logs a request once it has answered, after the lead's lines.
    await until(() => logged("/thank-you") - before === tries, "every hand-off logged");
    const leads = events("generate_lead", (value) => value.startsWith("cap-"));
    // Both replicas counted some, and together no more than one address's burst (and the one
    // a minute it earns back): not 60 each.
    expect(leads.every((count) => count > 0)).toBe(true);
    expect(sum(leads)).toBeGreaterThanOrEqual(LEADS_PER_ADDRESS.capacity);
    expect(sum(leads)).toBeLessThanOrEqual(LEADS_PER_ADDRESS.capacity + 1);
  });

  it("keeps a /build file in nginx's cache: one replica is asked once, and the app's headers stay", async () => {
    const page = await visit("127.0.4.251", "/");
    const asset = /\/build\/[^"]+\.js/.exec(page.body)?.[0] ?? "";
    expect(asset).not.toBe("");
    const asked = () => logged(asset);
    const before = asked();
    for (let n = 0; n < 4; n++) {
      const answer = await visit("127.0.4.251", asset, { headers: { "accept-encoding": "gzip" } });
      expect(answer.status).toBe(200);
      expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    }
    await sleep(200);
    expect(asked() - before).toBe(1);
  });

  it("keeps answering with Redis stopped mid-run, records every lead, and shares counting again once Redis is back", async () => {
    // Pages and batches from a crowd, all along, to catch any 5xx or wait. It stands aside
    // while one visitor reloads, so that round robin alternates that visitor's taps.
    const answered: Array<{ status: number; ms: number }> = [];
    let running = true;
    let aside: Promise<void> | null = null;
    let current: Promise<unknown> = Promise.resolve();
    const crowd = (async () => {
      for (let n = 0; running; n++) {
        if (aside) await aside;
        const address = `127.0.7.${1 + (n % 200)}`;
        current = n % 3 === 2 ? postBatch(address) : visit(address, n % 3 === 0 ? "/" : "/share");
        const answer = (await current) as RawAnswer;
        answered.push({ status: answer.status, ms: answer.ms });
      }
    })();
    /** Runs `visits` with the crowd stood aside. */
    async function alone<T>(visits: () => Promise<T>): Promise<T> {
      let back = () => {};
      aside = new Promise<void>((resolve) => {
        back = resolve;
      });
      await current;
      try {
        return await visits();
      } finally {
        aside = null;
        back();
      }
    }
    const readyz = () =>
      Promise.all(
        replicas.map(async (replica) =>
          JSON.parse((await visit("127.0.0.1", "/readyz", { origin: replica.origin })).body),
        ),
      );
    try {
      await sleep(300);
      await redis.stop();
      await until(
        () => replicas.every((replica) => stateLines(replica).at(-1) === "down"),
        "both replicas see Redis down",
      );
      const degraded = {
        status: "degraded",
        limits: "memory, redis down",
        redis: "down",
        ledger: "writing",
      };
      expect(await readyz()).toEqual([degraded, degraded]);

      // Leads while Redis is down: five visitors' first taps all count...
      for (let n = 1; n <= 5; n++) await reloads(`127.0.8.${n}`, `outage-${n}`, 1);
      // ...and a visitor's reloads spread over both replicas count at most once per replica:
      // each keeps its own memory now, and a duplicate is better than a lost lead.
      const outage = await alone(() => reloads("127.0.8.10", "outage-reloads"));
      expect(outage.views.every((count) => count >= 1)).toBe(true);
      expect(outage.leads).toBe(2);
      const outageLeads = sum(events("generate_lead", (value) => value.startsWith("outage-")));
      expect(outageLeads).toBe(7);

      await redis.restart();
      // Reconnects back off to 2 s at most.
      await until(
        () => replicas.every((replica) => stateLines(replica).at(-1) === "up"),
        "both replicas back on Redis",
      );
      expect((await readyz()).map((ready) => ready.redis)).toEqual(["up", "up"]);

      // Shared again: a new visitor's reloads over both replicas are one lead.
      const after = await alone(() => reloads("127.0.8.20", "after-restart"));
      expect(after.views.every((count) => count >= 1)).toBe(true);
      expect(after.leads).toBe(1);
    } finally {
      running = false;
      await crowd;
    }

    const slowest = Math.max(...answered.map((answer) => answer.ms));
    console.log(
      `crowd during the outage: ${answered.length} answers, slowest ${slowest.toFixed(1)} ms`,
    );
    expect(answered.length).toBeGreaterThan(20);
    expect(answered.filter((answer) => answer.status >= 500)).toEqual([]);
    // Nothing waited on Redis: a wait would be 200 ms per command, or seconds per reconnect.
    expect(slowest).toBeLessThan(1000);
    // One line when Redis went, one when it came back, per replica.
    expect(replicas.map(stateLines)).toEqual([
      ["up", "down", "up"],
      ["up", "down", "up"],
    ]);

    // The operator's closing stats: what was counted without Redis to confirm it.
    const closing = await Promise.all(
      replicas.map((replica) => {
        process.kill(replica.pid, "SIGTERM");
        return replica.waitForLine((line) => line.type === "analytics_shutdown");
      }),
    );
    expect(sum(closing.map((line) => Number(line.unconfirmed_dedupe)))).toBe(7);
    for (const replica of replicas) expect(crashSigns(replica.stderr())).toEqual([]);
  });
});
