// The lead ledger against the real server process, with stand-ins for GA4 and Meta on loopback:
// an outage, a SIGKILL, a connection reset after the request, the WhatsApp chat tied back to its
// lead, the report for marketers, and /metrics on its own port (docs/decisions/016-lead-ledger.md).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { postPageView } from "../support/browser-batch";
import {
  type ChildServer,
  freePort,
  freshDataDir,
  ROOT,
  sleep,
  startChildServer,
  until,
} from "../support/child-server";
import { type Destinations, gaEvents, startDestinations } from "../support/destinations";
import { scrapeMetrics, untilOwedNothing } from "../support/metrics-scrape";
import { type RedisServer, startRedis } from "../support/redis-server";
import { IPHONE_SAFARI_18 } from "../support/user-agents";
import { APP_SECRET, delivery, postToWebhook, signed } from "../support/whatsapp-webhook";

const VERIFY_TOKEN = "verify-token-for-tests";

let destinations: Destinations;
const servers: ChildServer[] = [];
let visitorCount = 0;

beforeAll(async () => {
  destinations = await startDestinations();
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  destinations.ga.length = 0;
  destinations.meta.length = 0;
  await destinations.setMode("ok");
});
afterAll(async () => {
  await destinations?.close();
});

/** The built server sending to the stand-ins, its metrics on a port of their own. */
async function start(env: Record<string, string> = {}) {
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : await freePort();
  const server = await startChildServer({
    GA_MEASUREMENT_ID: "G-LEDGER123",
    GA_API_SECRET: "ledger_secret_1",
    GA_MP_ENDPOINT: destinations.gaEndpoint,
    META_PIXEL_ID: "1234567890",
    META_ACCESS_TOKEN: "ledger_access_token_0123456789",
    META_CAPI_ENDPOINT: destinations.metaEndpoint,
    METRICS_PORT: String(metricsPort),
    ...env,
  });
  servers.push(server);
  return { ...server, metricsPort };
}

/** Once the server owes GA4 and Meta nothing, what the stand-ins have is all they get. */
const settled = (server: { metricsPort: number }) => untilOwedNothing(server.metricsPort);

/** One lead from a new visitor (its own address behind the trusted proxy). */
async function lead(server: ChildServer, query = "cta=whatsapp&utm_source=ig&utm_campaign=Eid") {
  visitorCount += 1;
  const response = await fetch(`${server.origin}/thank-you?${query}`, {
    headers: {
      "user-agent": IPHONE_SAFARI_18,
      "x-forwarded-for": `203.0.113.${visitorCount % 250}, 10.9.${visitorCount >> 8}.${visitorCount & 255}`,
    },
  });
  expect(response.status).toBe(200);
  return response.text();
}

const ledgerLines = (dir: string) =>
  readFileSync(join(dir, "leads.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map(
      (line) => JSON.parse(line) as { t: string; lead?: { id: string; at: number; ref?: string } },
    );

const distinct = <T>(values: T[]) => new Set(values).size;

describe("an outage of GA4 and Meta", () => {
  it("delivers every lead exactly once when they come back, with the time it happened", async () => {
    const dir = freshDataDir();
    const server = await start({ DATA_DIR: dir });
    await destinations.setMode("refused");
    const before = Date.now();
    for (let i = 0; i < 50; i++) await lead(server);
    const after = Date.now();
    // Down long enough for several rounds of backoff.
    await sleep(4000);
    expect(destinations.ga).toHaveLength(0);
    await destinations.setMode("ok");
    await until(() => gaEvents(destinations.ga, "generate_lead").length >= 50, "GA4's 50 leads");
    await until(() => destinations.meta.length >= 50, "Meta's 50 leads");
    await settled(server);
    const leads = gaEvents(destinations.ga, "generate_lead");
    expect(leads).toHaveLength(50);
    expect(distinct(leads.map((event) => event.client_id))).toBe(50);
    // Sent late, so each carries its own time: when the visitor tapped.
    for (const event of leads) {
      expect(event.timestamp_micros).toBeGreaterThanOrEqual(before * 1000);
      expect(event.timestamp_micros).toBeLessThanOrEqual(after * 1000);
    }
    expect(destinations.meta).toHaveLength(50);
    expect(distinct(destinations.meta.map((event) => event.event_id))).toBe(50);
    const recorded = new Map(
      ledgerLines(dir)
        .filter((line) => line.t === "lead")
        .map((line) => [line.lead?.id, line.lead?.at ?? 0]),
    );
    for (const event of destinations.meta) {
      expect(event.event_time).toBe(Math.floor((recorded.get(event.event_id) ?? 0) / 1000));
    }
  }, 120_000);
});

describe("a server killed with leads still owed", () => {
  it("sends all of them after it starts again on the same data directory", async () => {
    const dir = freshDataDir();
    const first = await start({ DATA_DIR: dir });
    await destinations.setMode("refused");
    for (let i = 0; i < 30; i++) await lead(first);
    // Every lead was on disk before its page was answered.
    expect(ledgerLines(dir).filter((line) => line.t === "lead")).toHaveLength(30);
    await first.kill();
    expect(destinations.ga).toHaveLength(0);
    await destinations.setMode("ok");
    // The killed process left its lock; the new one takes the directory over.
    const second = await start({ DATA_DIR: dir });
    await until(() => gaEvents(destinations.ga, "generate_lead").length >= 30, "30 leads in GA4");
    await until(() => destinations.meta.length >= 30, "30 leads in Meta");
    await settled(second);
    expect(distinct(gaEvents(destinations.ga, "generate_lead").map((e) => e.client_id))).toBe(30);
    expect(gaEvents(destinations.ga, "generate_lead")).toHaveLength(30);
    expect(distinct(destinations.meta.map((event) => event.event_id))).toBe(30);
  }, 120_000);
});

describe("a destination that resets the connection once it has read the call", () => {
  it("keeps GA4's lead calls for one late try, counts other events unconfirmed, and retries Meta until it confirms", async () => {
    const metricsPort = await freePort();
    const server = await start({ METRICS_PORT: String(metricsPort) });
    await destinations.setMode("reset");
    for (let i = 0; i < 10; i++) await lead(server);
    // A browser's batch: not a lead, so GA4 is not sent it twice.
    expect((await postPageView(server.origin, "203.0.113.251")).status).toBeLessThan(300);
    await until(() => destinations.requests() >= 21, "the calls to arrive and be reset");
    await sleep(1500);
    let values = await scrapeMetrics(metricsPort);
    // 10 leads of 4 GA4 events each wait for their one late try; the batch's event is unconfirmed.
    expect(values.get('darb_outbox_pending_events{destination="ga4"}')).toBe(40);
    expect(values.get('darb_outbox_events_total{destination="ga4",outcome="unconfirmed"}')).toBe(1);
    expect(values.get('darb_outbox_events_total{destination="ga4",outcome="delivered"}')).toBe(0);
    // Each of the 41 went out with no answer: may have counted, and an alert watches the share.
    expect(values.get('darb_outbox_uncertain_total{destination="ga4"}')).toBe(41);
    // Meta drops repeats by event_id: sent again until it answers.
    await destinations.setMode("ok");
    await until(() => distinct(destinations.meta.map((e) => e.event_id)) >= 10, "Meta's 10 leads");
    await sleep(500);
    values = await scrapeMetrics(metricsPort);
    expect(values.get('darb_outbox_events_total{destination="meta",outcome="delivered"}')).toBe(10);
    expect(values.get('darb_outbox_pending_events{destination="meta"}')).toBe(0);
    expect(values.get('darb_outbox_pending_events{destination="ga4"}')).toBe(40);
    expect(destinations.ga).toHaveLength(0);
  }, 120_000);
});

const post = (server: ChildServer, body: string, signature?: string) =>
  postToWebhook(server.origin, body, signature);

describe("the WhatsApp chat a lead starts", () => {
  it("is tied to its lead, told to GA4 and Meta once, shown in the report, and refused unsigned", async () => {
    const dir = freshDataDir();
    const metricsPort = await freePort();
    const server = await start({
      DATA_DIR: dir,
      METRICS_PORT: String(metricsPort),
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      WHATSAPP_APP_SECRET: APP_SECRET,
    });
    // Meta's handshake.
    const hub = await fetch(
      `${server.origin}/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`,
    );
    expect(hub.status).toBe(200);
    expect(await hub.text()).toBe("1158201444");
    const wrongToken = await fetch(
      `${server.origin}/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`,
    );
    expect(wrongToken.status).toBe(403);

    const page = await lead(
      server,
      "cta=whatsapp&utm_source=instagram&utm_medium=paid&utm_campaign=Ramadan",
    );
    const ref = /Ref%20(DRB-[2-9A-Z]{5})/.exec(page)?.[1];
    expect(ref, "the WhatsApp link's message carries the reference").toBeDefined();
    await until(() => gaEvents(destinations.ga, "generate_lead").length === 1, "the lead in GA4");
    const [generated] = gaEvents(destinations.ga, "generate_lead");
    const leadEvent = destinations.meta.find((event) => event.event_name === "Lead");

    // A bad or missing signature changes nothing.
    const body = delivery("wamid.first", `Hi Darb! I'd like the app.\n\nRef ${ref}`, {
      referral: { source_type: "ad", source_id: "120212345678900123", ctwa_clid: "ctwa-click-1" },
    });
    expect((await post(server, body, signed(body, "f".repeat(32)))).status).toBe(401);
    expect((await post(server, body)).status).toBe(401);
    expect(server.lines.some((line) => line.type === "whatsapp_webhook_refused")).toBe(true);
    expect(JSON.stringify(server.lines)).not.toContain("I'd like the app");

    expect((await post(server, body, signed(body))).status).toBe(200);
    await until(() => gaEvents(destinations.ga, "working_lead").length === 1, "working_lead");
    await until(
      () => destinations.meta.some((event) => event.event_name === "LeadSubmitted"),
      "Meta's chat event",
    );
    // Meta sends a delivery again until it gets a 200: the same message changes nothing.
    expect((await post(server, body, signed(body))).status).toBe(200);
    // Another chat quoting no reference: a chat without a campaign, no lead changed.
    const stranger = delivery("wamid.second", "hello, is the app free?");
    expect((await post(server, stranger, signed(stranger))).status).toBe(200);
    // Answered once recorded: whatever the two deliveries made is owed by now.
    await settled(server);

    const working = gaEvents(destinations.ga, "working_lead");
    expect(working).toHaveLength(1);
    expect(working[0]?.client_id).toBe(generated?.client_id);
    expect(working[0]?.params.session_id).toBe(generated?.params.session_id);
    expect(working[0]?.params.campaign).toBe("Ramadan");
    const chats = destinations.meta.filter((event) => event.event_name === "LeadSubmitted");
    expect(chats).toHaveLength(1);
    expect(chats[0]).toMatchObject({
      action_source: "business_messaging",
      messaging_channel: "whatsapp",
      user_data: {
        ctwa_clid: "ctwa-click-1",
        whatsapp_business_account_id: "102290129340398",
        external_id: leadEvent?.user_data.external_id,
      },
    });

    const values = await scrapeMetrics(metricsPort);
    expect(values.get('darb_chats_total{matched="true"}')).toBe(1);
    expect(values.get('darb_chats_total{matched="false"}')).toBe(1);
    expect(values.get('darb_leads_total{cta="whatsapp"}')).toBe(1);
    // Not on the public port.
    expect((await fetch(`${server.origin}/metrics`)).status).toBe(404);

    // The marketer's report, from the ledger alone.
    const report = spawnSync(process.execPath, [join(ROOT, "server-build/leads-report.js")], {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dir },
      encoding: "utf8",
    });
    expect(report.status, report.stderr).toBe(0);
    expect(report.stdout).toMatch(
      /^lead\s+\d{4}-\d{2}-\d{2}\s+instagram\s+paid\s+Ramadan\s+\(none\)\s+\(none\)\s+whatsapp\s+\(none\)\s+\S+\s+en\s+1\s+1\s+100%/m,
    );
    // The chat quoted its lead's reference: its lead's, though it came from an ad.
    expect(report.stdout).not.toMatch(/^ad chat/m);
    expect(report.stdout).toContain("1 chats without a campaign");
    const csv = spawnSync(
      process.execPath,
      [join(ROOT, "server-build/leads-report.js"), "--since", "2d", "--csv"],
      {
        env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dir },
        encoding: "utf8",
      },
    );
    expect(csv.stdout.split("\r\n")[1]).toMatch(
      // Then no link sent (no automatic reply here), no shares, and qualified, installed, lost
      // and their value: none told yet.
      /^lead,\d{4}-\d{2}-\d{2},instagram,paid,Ramadan,\(none\),\(none\),whatsapp,\(none\),[^,]+,en,1,1,100%,0,0,0,0,0,0$/,
    );
  }, 120_000);
});

describe("two replicas sharing Redis", () => {
  let redis: RedisServer | undefined;
  afterAll(async () => {
    await redis?.stop();
  });

  /** Waits until Redis holds a key matching `pattern`. */
  async function redisHas(pattern: string) {
    for (let tries = 0; tries < 100; tries++) {
      if ((await redis?.command(`KEYS ${pattern}`))?.includes(pattern.slice(0, -1))) return;
      await sleep(100);
    }
    throw new Error(`Redis never held ${pattern}`);
  }

  it("match a chat on one replica to the lead another counted, once, and report both", async () => {
    redis = await startRedis();
    const shared = {
      REDIS_URL: redis.url,
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      WHATSAPP_APP_SECRET: APP_SECRET,
    };
    const one = await start(shared);
    const two = await start(shared);
    const page = await lead(one, "cta=whatsapp&utm_source=tiktok&utm_campaign=Launch");
    const ref = /Ref%20(DRB-[2-9A-Z]{5})/.exec(page)?.[1];
    expect(ref).toBeDefined();
    await until(() => gaEvents(destinations.ga, "generate_lead").length === 1, "the lead in GA4");
    const [generated] = gaEvents(destinations.ga, "generate_lead");
    const body = delivery("wamid.replica", `Hi!\n\nRef ${ref}`);
    // The lead's copy reaches Redis through replica one's outbox, at once when Redis is up.
    await redisHas("darb:ledger:ref:*");
    expect((await post(two, body, signed(body))).status).toBe(200);
    // Meta may send the same delivery to the other replica: claimed once, across both.
    expect((await post(one, body, signed(body))).status).toBe(200);
    await until(() => gaEvents(destinations.ga, "working_lead").length === 1, "working_lead");
    await settled(one);
    await settled(two);
    const working = gaEvents(destinations.ga, "working_lead");
    expect(working).toHaveLength(1);
    expect(working[0]?.client_id).toBe(generated?.client_id);
    expect(working[0]?.params.campaign).toBe("Launch");
    // A chat from the site's own link (no ad's click in it) is a chat-sourced Contact.
    const contacts = destinations.meta.filter((e) => e.event_name === "Contact");
    expect(contacts).toHaveLength(1);
    expect(contacts[0]?.action_source).toBe("chat");

    // The report reads every replica's leads from Redis.
    await redisHas("darb:ledger:chat:*");
    const report = spawnSync(process.execPath, [join(ROOT, "server-build/leads-report.js")], {
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        REDIS_URL: redis.url,
        ANALYTICS_SALT: "child-server-test-salt",
        DATA_DIR: freshDataDir(),
      },
      encoding: "utf8",
    });
    expect(report.status, report.stderr).toBe(0);
    expect(report.stdout).toMatch(
      /^Leads from .* Dubai time \(UTC\+4\), read from Redis \(every replica\)$/m,
    );
    expect(report.stdout).toMatch(
      /^lead\s+\d{4}-\d{2}-\d{2}\s+tiktok\s+\(none\)\s+Launch\s+\(none\)\s+\(none\)\s+whatsapp\s+\(none\)\s+\S+\s+en\s+1\s+1\s+100%/m,
    );
  }, 120_000);
});
