// What production does to the lead ledger, against the built server with loopback stand-ins for
// GA4 and Meta (docs/decisions/016-lead-ledger.md): a data directory that fills, a SIGTERM in
// the middle of a GA4 outage and a restart once GA4 is back, an expired Meta token, a recreated
// container's lock, a directory that cannot be written. Every answered lead is kept and
// delivered, or an operator is told in a log line and /metrics.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { startAdNetworks } from "../support/ad-networks";
import { postPageView } from "../support/browser-batch";
import {
  type ChildServer,
  childServerEnv,
  freePort,
  freshDataDir,
  ROOT,
  SERVER,
  sleep,
  startChildServer,
  until,
} from "../support/child-server";
import { type Destinations, gaEvents, startDestinations } from "../support/destinations";
import { clockAhead } from "../support/faketime";
import { scrapeMetrics, untilOwedNothing } from "../support/metrics-scrape";
import { mountSmallDisk, type SmallDisk } from "../support/small-disk";
import { IPHONE_SAFARI_18 } from "../support/user-agents";
import { APP_SECRET, delivery, postToWebhook, signed } from "../support/whatsapp-webhook";

let destinations: Destinations;
const servers: ChildServer[] = [];
const disks: SmallDisk[] = [];
let visitorCount = 0;

beforeAll(async () => {
  destinations = await startDestinations();
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  for (const disk of disks.splice(0)) disk.unmount();
  destinations.ga.length = 0;
  destinations.meta.length = 0;
  await destinations.setMode("ok");
});
afterAll(async () => {
  await destinations?.close();
});

const GA_SECRET = "ga_SECRET_value_1";
const META_TOKEN = "EAAB_meta_SECRET_token_0123456789";

/** The built server sending to the stand-ins, its metrics on a port of their own. */
async function start(env: Record<string, string> = {}) {
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : await freePort();
  const server = await startChildServer({
    GA_MEASUREMENT_ID: "G-FAULTS123",
    GA_API_SECRET: GA_SECRET,
    GA_MP_ENDPOINT: destinations.gaEndpoint,
    META_PIXEL_ID: "1234567890",
    META_ACCESS_TOKEN: META_TOKEN,
    META_CAPI_ENDPOINT: destinations.metaEndpoint,
    METRICS_PORT: String(metricsPort),
    ...env,
  });
  servers.push(server);
  return { ...server, metricsPort };
}

/** Once the server owes GA4 and Meta nothing, what the stand-ins have is all they get. */
const settled = (server: { metricsPort: number }) => untilOwedNothing(server.metricsPort);

/** One lead from a new visitor; the page must hand off to WhatsApp with the lead's reference. */
async function lead(server: ChildServer) {
  visitorCount += 1;
  const response = await fetch(`${server.origin}/thank-you?cta=whatsapp&utm_source=ig`, {
    headers: {
      "user-agent": IPHONE_SAFARI_18,
      "x-forwarded-for": `10.35.${visitorCount >> 8}.${visitorCount & 255}`,
    },
  });
  const page = await response.text();
  expect(response.status).toBe(200);
  expect(page).toMatch(/https:\/\/wa\.me\/971585550134\?text=[^"]*Ref%20DRB-[2-9A-Z]{5}/);
}

type LedgerLine = { t: string; lead?: { id: string; at: number } };
const ledgerLines = (dir: string): LedgerLine[] =>
  readFileSync(join(dir, "leads.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LedgerLine);
const leadTimes = (dir: string) =>
  new Map(
    ledgerLines(dir).flatMap((line) =>
      line.t === "lead" && line.lead ? [[line.lead.id, line.lead.at]] : [],
    ),
  );
const linesOf = (server: ChildServer, type: string) =>
  server.lines.filter((line) => line.type === type);

async function readyz(server: ChildServer) {
  return (await (await fetch(`${server.origin}/readyz`)).json()) as Record<string, unknown>;
}

describe("a data directory that fills up", () => {
  it("answers every lead with its hand-off, stays up, and keeps and delivers each once the space is back", async () => {
    const disk = mountSmallDisk(512);
    disks.push(disk);
    const dir = join(disk.dir, "data");
    const metricsPort = await freePort();
    const server = await start({ DATA_DIR: dir, METRICS_PORT: String(metricsPort) });
    // The destinations fail: everything stays owed, and the ledger only grows.
    await destinations.setMode("fail");
    for (let i = 0; i < 5; i++) await lead(server);
    disk.fill();
    for (let i = 0; i < 30; i++) await lead(server);
    await server.waitForLine((line) => line.type === "ledger_failing");
    expect(await readyz(server)).toMatchObject({
      status: "degraded",
      ledger: "failing",
      ledger_error: "ENOSPC",
    });
    let values = await scrapeMetrics(metricsPort);
    expect(values.get("darb_ledger_failing")).toBe(1);
    expect(values.get("darb_ready")).toBe(0);
    expect(values.get("darb_ledger_held_entries")).toBeGreaterThan(0);
    // Outbox retries keep writing while the disk is full: the process stays up through them.
    await sleep(3000);
    expect(server.alive()).toBe(true);
    expect(linesOf(server, "ledger_failing")).toHaveLength(1);
    expect(linesOf(server, "uncaught")).toEqual([]);

    disk.free();
    await server.waitForLine((line) => line.type === "ledger_recovered", 20_000);
    expect(await readyz(server)).toMatchObject({ status: "ok", ledger: "writing" });
    values = await scrapeMetrics(metricsPort);
    expect(values.get("darb_ledger_failing")).toBe(0);
    // Every answered lead is in the file.
    expect(leadTimes(dir).size).toBe(35);

    await destinations.setMode("ok");
    await until(() => gaEvents(destinations.ga, "generate_lead").length >= 35, "GA4's 35 leads");
    await until(() => destinations.meta.length >= 35, "Meta's 35 leads");
    await settled(server);
    expect(gaEvents(destinations.ga, "generate_lead")).toHaveLength(35);
    expect(new Set(destinations.meta.map((event) => event.event_id)).size).toBe(35);
    expect(destinations.meta).toHaveLength(35);

    // A restart reads the ledger whole: not a line skipped, nothing sent twice.
    await server.kill();
    // The ledger is read before the server answers: whatever it would send again is owed now.
    const again = await start({ DATA_DIR: dir });
    await settled(again);
    expect(linesOf(again, "ledger_line_skipped")).toEqual([]);
    expect(linesOf(again, "ledger_tail_cut")).toEqual([]);
    expect(leadTimes(dir).size).toBe(35);
    expect(gaEvents(destinations.ga, "generate_lead")).toHaveLength(35);
    expect(destinations.meta).toHaveLength(35);
  }, 180_000);

  it("starts on a full disk, serves, and writes what it was given once space comes back", async () => {
    const disk = mountSmallDisk(256);
    disks.push(disk);
    const dir = join(disk.dir, "data");
    const first = await start({ DATA_DIR: dir });
    await destinations.setMode("fail");
    for (let i = 0; i < 3; i++) await lead(first);
    await first.kill();
    disk.fill();
    const server = await start({ DATA_DIR: dir });
    for (let i = 0; i < 3; i++) await lead(server);
    await server.waitForLine((line) => line.type === "ledger_failing");
    disk.free();
    await server.waitForLine((line) => line.type === "ledger_recovered", 20_000);
    expect(leadTimes(dir).size).toBe(6);
  }, 120_000);
});

describe("SIGTERM in the middle of a GA4 outage", () => {
  it("keeps each lead's one late try for after the restart, where GA4 gets every lead once, with its time", async () => {
    const dir = freshDataDir();
    const server = await start({ DATA_DIR: dir });
    // GA4 takes each call and resets the connection: nothing says whether it counted.
    await destinations.setMode("reset");
    for (let i = 0; i < 20; i++) await lead(server);
    await until(() => destinations.requests() >= 40, "the GA4 and Meta calls to be reset");
    await sleep(500);
    const stopping = server.exited;
    process.kill(server.pid, "SIGTERM");
    expect((await stopping).code).toBe(0);
    expect(gaEvents(destinations.ga, "generate_lead")).toHaveLength(0);

    // Back eleven minutes later, GA4 healthy.
    await destinations.setMode("ok");
    const times = leadTimes(dir);
    expect(times.size).toBe(20);
    const later = await start({ DATA_DIR: dir, ...clockAhead("+11m") });
    await until(() => gaEvents(destinations.ga, "generate_lead").length >= 20, "GA4's 20 leads");
    await until(() => new Set(destinations.meta.map((e) => e.event_id)).size >= 20, "Meta's 20");
    await settled(later);
    const leads = gaEvents(destinations.ga, "generate_lead");
    expect(leads).toHaveLength(20);
    expect(new Set(leads.map((event) => event.client_id)).size).toBe(20);
    // Each dated when the visitor tapped.
    const tapped = [...times.values()].map((at) => at * 1000).sort();
    expect(leads.map((event) => event.timestamp_micros).sort()).toEqual(tapped);
  }, 180_000);
});

describe("a Meta token that expired", () => {
  it("says each refused call in one line with Meta's code and the lead, counts it, and sends it once a new token is deployed", async () => {
    const dir = freshDataDir();
    const metricsPort = await freePort();
    const server = await start({ DATA_DIR: dir, METRICS_PORT: String(metricsPort) });
    const before = await scrapeMetrics(metricsPort);
    expect(before.get('darb_outbox_credentials_refused_total{destination="meta"}')).toBe(0);
    await destinations.setMode("expired-token");
    for (let i = 0; i < 5; i++) await lead(server);
    await until(() => linesOf(server, "delivery_refused").length >= 5, "five refusals said");
    await sleep(1000);
    const refused = linesOf(server, "delivery_refused");
    expect(refused).toHaveLength(5);
    const ids = [...leadTimes(dir).keys()].sort();
    expect(refused.map((line) => line.lead).sort()).toEqual(ids);
    for (const line of refused) {
      expect(line).toMatchObject({
        destination: "meta",
        status: 400,
        code: "190/463",
        message: expect.stringContaining("Session has expired"),
        time: expect.any(String),
        replica: expect.any(String),
      });
    }
    const after = await scrapeMetrics(metricsPort);
    expect(after.get('darb_outbox_credentials_refused_total{destination="meta"}')).toBe(5);
    expect(after.get('darb_outbox_pending_events{destination="meta"}')).toBe(5);
    // The documented alert fires on what this server exported: its rule (expression, labels,
    // wait) from deploy/alerts.yml, fed the two scrapes, in promtool.
    const rule = (
      parseYaml(readFileSync(join(ROOT, "deploy/alerts.yml"), "utf8")) as {
        groups: Array<{ rules: Array<Record<string, unknown>> }>;
      }
    ).groups
      .flatMap((group) => group.rules)
      .find((each) => each.alert === "DestinationRefusesCredentials");
    expect(rule).toBeDefined();
    const rules = join(dir, "credentials.rules.yml");
    const { annotations: _annotations, ...bare } = rule as Record<string, unknown>;
    writeFileSync(rules, JSON.stringify({ groups: [{ name: "darb", rules: [bare] }] }));
    const series = 'darb_outbox_credentials_refused_total{destination="meta"}';
    const test = join(dir, "credentials.test.yml");
    writeFileSync(
      test,
      JSON.stringify({
        rule_files: [rules],
        evaluation_interval: "1m",
        tests: [
          {
            interval: "1m",
            input_series: [
              {
                series:
                  'darb_outbox_credentials_refused_total{destination="meta",job="darb",instance="site-1:9464"}',
                values: `${before.get(series)} ${after.get(series)}x20`,
              },
            ],
            alert_rule_test: [
              {
                eval_time: "5m",
                alertname: "DestinationRefusesCredentials",
                exp_alerts: [{ exp_labels: { ...(bare.labels as object), destination: "meta" } }],
              },
            ],
          },
        ],
      }),
    );
    const promtool = execFileSync("promtool", ["test", "rules", test], { encoding: "utf8" });
    expect(promtool).toContain("SUCCESS");

    // A new token, a restart: the held leads go to Meta, each once.
    await server.kill();
    await destinations.setMode("ok");
    const renewed = await start({ DATA_DIR: dir });
    await until(() => destinations.meta.length >= 5, "Meta's five leads");
    await settled(renewed);
    expect(destinations.meta.map((event) => event.event_id).sort()).toEqual(ids);
  }, 120_000);
});

describe("DATA_DIR's lock", () => {
  /** Spawns the server and resolves once it answers /healthz, or with its exit. */
  async function bootTime(dir: string) {
    const port = await freePort();
    const started = performance.now();
    const child = spawn(process.execPath, [SERVER], {
      cwd: ROOT,
      env: childServerEnv(port, { DATA_DIR: dir, ANALYTICS_SALT: "lock-test-salt-0123456" }),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    for (;;) {
      if (child.exitCode !== null) return { ms: -1, code: await exited, stderr };
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
      } catch {
        // not yet
      }
      await sleep(20);
    }
    const ms = performance.now() - started;
    child.kill("SIGKILL");
    await exited;
    return { ms, code: null, stderr };
  }

  it("is taken over from a container that is gone, after watching it for a second at most", async () => {
    const dir = freshDataDir();
    // The last container's lock, fresh: it was killed a moment ago, on a host that is not this one.
    writeFileSync(join(dir, "leads.lock"), "9f2c1a7e3b4d 1");
    const server = await start({ DATA_DIR: dir });
    const [taken] = linesOf(server, "ledger_lock_taken_over");
    expect(taken).toMatchObject({ lock: "9f2c1a7e3b4d 1" });
    // Watched for its heartbeat, which never came: about LOCK_STALE_MS, a second.
    expect(taken?.waited_ms).toBeGreaterThanOrEqual(900);
    expect(taken?.waited_ms).toBeLessThan(2000);
    expect(readFileSync(join(dir, "leads.lock"), "utf8")).toBe(`${hostname()} ${server.pid}`);
  }, 60_000);

  it("held by a live server elsewhere stops the start with one config_error for DATA_DIR", async () => {
    const dir = freshDataDir();
    writeFileSync(join(dir, "leads.lock"), "other-container 1");
    const beating = spawn(
      process.execPath,
      [
        "-e",
        "setInterval(()=>{const n=new Date();require('fs').utimesSync(process.argv[1],n,n)},100)",
        join(dir, "leads.lock"),
      ],
      { stdio: "ignore" },
    );
    try {
      const refused = await bootTime(dir);
      expect(refused.code).toBe(1);
      const lines = refused.stderr
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      const errors = lines.filter((line) => line.type === "config_error");
      expect(errors).toEqual([
        expect.objectContaining({
          variable: "DATA_DIR",
          error: expect.stringContaining('is in use by process 1 on "other-container"'),
        }),
      ]);
    } finally {
      beating.kill("SIGKILL");
    }
  }, 60_000);

  it("on a read-only file system is a config_error for DATA_DIR naming the cause", async () => {
    const disk = mountSmallDisk(64, { readOnly: true });
    disks.push(disk);
    const refused = await bootTime(disk.dir);
    expect(refused.code).toBe(1);
    const errors = refused.stderr
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((line) => line.type === "config_error");
    expect(errors).toEqual([
      expect.objectContaining({
        variable: "DATA_DIR",
        error: "DATA_DIR cannot be written (EROFS: the file system is read-only)",
      }),
    ]);
  }, 60_000);

  it("that cannot be created names the cause", async () => {
    const file = join(freshDataDir(), "a-file");
    writeFileSync(file, "");
    const refused = await bootTime(join(file, "data"));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('"variable":"DATA_DIR"');
    expect(refused.stderr).toContain("cannot be created (ENOTDIR");
    expect(refused.stderr).not.toContain("PORT");
  }, 60_000);
});

describe("secrets", () => {
  it("are in no ledger line, backup, log line or /metrics, with every destination on and owed", async () => {
    const networks = await startAdNetworks();
    try {
      const dir = freshDataDir();
      const metricsPort = await freePort();
      const salt = "salt_SECRET_value_0123456789";
      const verifyToken = "verify_SECRET_token";
      const leadsToken = "leads_api_SECRET_token_0123456789abcdef";
      const server = await start(
        networks.env({
          DATA_DIR: dir,
          METRICS_PORT: String(metricsPort),
          ANALYTICS_SALT: salt,
          WHATSAPP_VERIFY_TOKEN: verifyToken,
          WHATSAPP_APP_SECRET: APP_SECRET,
          LEADS_API_TOKEN: leadsToken,
        }),
      );
      // One lead delivered everywhere (Google's token fetched and used), then an outage.
      const tagged = (n: number) =>
        `cta=whatsapp&utm_source=ig&fbclid=fb${n}&gclid=g${n}&ttclid=tt${n}&ScCid=sc${n}`;
      const tap = (n: number) =>
        fetch(`${server.origin}/thank-you?${tagged(n)}`, {
          headers: { "user-agent": IPHONE_SAFARI_18, "x-forwarded-for": `10.36.0.${n}` },
        });
      const first = await (await tap(1)).text();
      await until(() => networks.conversions().length === 1, "Google's first upload");
      await destinations.setMode("reset");
      await networks.setUp(false);
      for (let n = 2; n <= 6; n++) expect((await tap(n)).status).toBe(200);
      expect((await postPageView(server.origin, "10.36.0.99", "ig")).status).toBe(204);
      const ref = /Ref%20(DRB-[2-9A-Z]{5})/.exec(first)?.[1] ?? "";
      const chat = delivery("wamid.secrets", `Hello\n\nRef ${ref}`);
      expect((await postToWebhook(server.origin, chat, signed(chat))).status).toBe(200);
      // The team says the lead installed; the calls it owes wait out the outage too.
      const stage = await fetch(`${server.origin}/api/leads/stage`, {
        method: "POST",
        headers: { authorization: `Bearer ${leadsToken}`, "content-type": "application/json" },
        body: JSON.stringify({ ref, stage: "installed", value: 150 }),
      });
      expect(stage.status).toBe(200);
      await sleep(3000);
      // Refusals and retries were said in the log meanwhile.
      const backup = join(dir, "backup.jsonl");
      execFileSync(
        process.execPath,
        [join(ROOT, "server-build/leads-report.js"), "backup", backup],
        {
          env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dir },
        },
      );
      const exported = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      await server.kill();
      const ledger = readFileSync(join(dir, "leads.jsonl"), "utf8");
      const copy = readFileSync(backup, "utf8");
      const log = JSON.stringify(server.lines) + server.stderr();
      expect(copy).toContain('"t":"lead"');
      expect(ledger).toContain('"t":"stage"');
      expect(ledger).toContain('"t":"calls"');
      const secrets = [
        GA_SECRET,
        META_TOKEN,
        salt,
        verifyToken,
        leadsToken,
        APP_SECRET,
        ...networks.tokens,
        ...Object.entries(networks.env())
          .filter(([name]) => /TOKEN|SECRET/.test(name))
          .map(([, value]) => value),
      ];
      expect(secrets.length).toBeGreaterThanOrEqual(11);
      for (const secret of secrets) {
        expect(ledger, "the ledger").not.toContain(secret);
        expect(copy, "the backup").not.toContain(secret);
        expect(log, "the log").not.toContain(secret);
        expect(exported, "/metrics").not.toContain(secret);
      }
    } finally {
      await networks.close();
    }
  }, 120_000);
});
