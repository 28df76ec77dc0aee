// The ad networks against the built server as production runs it, with a loopback stand-in per ad
// network: TikTok's Events API, Snap's Conversions API, and Google Ads with Google's OAuth token
// endpoint. Each lead reaches each network once with its own click id and nothing of another's,
// a lead without a Google click id never reaches Google Ads, nothing is sent for what is no
// visit, and an outage of every stand-in delays the leads without losing one
// (docs/decisions/023-ad-networks.md).
import { spawn } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type AdNetworks,
  GOOGLE_CUSTOMER,
  SNAP_PIXEL,
  startAdNetworks,
  TIKTOK_PATH,
} from "../support/ad-networks";
import {
  type ChildServer,
  childServerEnv,
  freePort,
  ROOT,
  SERVER,
  sleep,
  startChildServer,
  until,
} from "../support/child-server";
import { scrapeMetrics, untilOwedNothing } from "../support/metrics-scrape";
import { BINGBOT, IPHONE_SAFARI_18 } from "../support/user-agents";
import { APP_SECRET, delivery, postToWebhook, signed } from "../support/whatsapp-webhook";

let networks: AdNetworks;
const servers: ChildServer[] = [];
let visitors = 0;

beforeAll(async () => {
  networks = await startAdNetworks();
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  await networks.setUp(true);
  networks.reset();
});
afterAll(async () => {
  await networks?.close();
});

/** The built server, with its metrics on a port of their own (`metricsPort`). */
async function start(env: Record<string, string> = {}) {
  const metricsPort = await freePort();
  const server = await startChildServer(
    networks.env({ METRICS_PORT: String(metricsPort), ...env }),
  );
  servers.push(server);
  return { ...server, metricsPort };
}

/** Once the server owes no network anything, whatever a stand-in has is all it gets. */
const settled = (server: { metricsPort: number }) => untilOwedNothing(server.metricsPort);

/** A lead from a new visitor (its own address behind the trusted proxy); its address back. */
async function lead(server: ChildServer, query: string, headers: Record<string, string> = {}) {
  visitors += 1;
  const address = `198.51.100.${visitors % 250}`;
  const response = await fetch(`${server.origin}/thank-you?${query}`, {
    headers: {
      "user-agent": `${IPHONE_SAFARI_18} Ads/${visitors}`,
      "x-forwarded-for": address,
      ...headers,
    },
  });
  expect(response.status).toBe(200);
  const html = await response.text();
  return { address, userAgent: `${IPHONE_SAFARI_18} Ads/${visitors}`, html };
}

const leadIdOf = (html: string) => /data-lead-id="([^"]+)"/.exec(html)?.[1];
const TTCLID = "E.C.P.CqgBTikTokClick0123456789";
const SCCID = "5f4c3b2a-sc-click-0123";
const GCLID = "Cj0KCQiAgoogleClick0123456789";

describe("each network gets its own lead, once", () => {
  it("TikTok: a ttclid lead arrives once as Contact, with event id and time, page, address, user agent and ttclid", async () => {
    const server = await start();
    const before = Math.floor(Date.now() / 1000);
    const sent = await lead(
      server,
      `cta=whatsapp&utm_source=tiktok&utm_campaign=Eid&ttclid=${TTCLID}&gclid=${GCLID}`,
    );
    const id = leadIdOf(sent.html);
    expect(id).toBeDefined();
    await until(() => networks.tiktokEvents().length >= 1, "TikTok's event");
    await until(() => networks.conversions().length >= 1, "Google's upload");
    await settled(server);
    const events = networks.tiktokEvents();
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({
      event: "Contact",
      event_id: id,
      user: { ip: sent.address, user_agent: sent.userAgent, ttclid: TTCLID },
    });
    expect(event?.event_time).toBeGreaterThanOrEqual(before);
    expect(event?.event_time).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    const page = new URL(event?.page.url ?? "");
    expect(page.origin).toBe("https://darb.example");
    expect(page.searchParams.get("ttclid")).toBe(TTCLID);
    expect(page.searchParams.get("utm_campaign")).toBe("Eid");
    // Only its own click id.
    expect(JSON.stringify(events)).not.toContain(GCLID);
    const [request] = networks.tiktok.taken;
    expect(request?.headers["access-token"]).toBe("tiktok_TOPSECRET_token_0123");
    expect(request?.path).toBe(TIKTOK_PATH);
    expect(JSON.parse(request?.body ?? "{}")).toMatchObject({
      event_source: "web",
      event_source_id: "C4STANDIN0123456789",
    });
    // Google got it too (it has a gclid), without TikTok's click id.
    expect(JSON.stringify(networks.conversions())).not.toContain(TTCLID);
    const values = await scrapeMetrics(server.metricsPort);
    expect(values.get('darb_outbox_events_total{destination="tiktok",outcome="delivered"}')).toBe(
      1,
    );
    expect(values.get('darb_outbox_pending_events{destination="tiktok"}')).toBe(0);
    expect(
      values.get('darb_outbox_events_total{destination="google_ads",outcome="delivered"}'),
    ).toBe(1);
  }, 60_000);

  it("Snap: a ScCid lead arrives once as SIGN_UP from WEB, with sc_click_id, address, user agent, time and event id, by Bearer token", async () => {
    const server = await start();
    const sent = await lead(
      server,
      `cta=email&utm_source=snapchat&ScCid=${SCCID}&ttclid=${TTCLID}`,
    );
    await until(() => networks.snapEvents().length >= 1, "Snap's event");
    await settled(server);
    const events = networks.snapEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event_name: "SIGN_UP",
      event_id: leadIdOf(sent.html),
      action_source: "WEB",
      user_data: {
        client_ip_address: sent.address,
        client_user_agent: sent.userAgent,
        sc_click_id: SCCID,
      },
    });
    expect(events[0]?.event_time).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(new URL(events[0]?.event_source_url ?? "").searchParams.get("ScCid")).toBe(SCCID);
    expect(JSON.stringify(events)).not.toContain(TTCLID);
    const [request] = networks.snap.taken;
    expect(request?.path).toBe(`/v3/${SNAP_PIXEL}/events`);
    expect(request?.headers.authorization).toBe("Bearer snap_TOPSECRET_token_0123");
    // TikTok gets the same lead with its own click id, and none of Snap's.
    expect(networks.tiktokEvents()[0]?.user.ttclid).toBe(TTCLID);
    expect(JSON.stringify(networks.tiktokEvents())).not.toContain(SCCID);
  }, 60_000);

  it("Google Ads: a gclid lead reaches the Data Manager API once, after a token refresh, as its documented request", async () => {
    const server = await start();
    const sent = await lead(server, `cta=demo&utm_source=google&utm_medium=cpc&gclid=${GCLID}`);
    await until(() => networks.conversions().length >= 1, "Google's first event");
    const second = await lead(server, `cta=whatsapp&utm_source=google&gbraid=${GCLID}b`);
    await until(() => networks.conversions().length >= 2, "the second event");
    await settled(server);
    const requests = networks.ingests();
    expect(requests).toHaveLength(2);
    // Field by field, as the API's reference has them (docs/decisions/026).
    expect(requests[0]).toEqual({
      destinations: [
        {
          operatingAccount: { accountType: "GOOGLE_ADS", accountId: GOOGLE_CUSTOMER },
          productDestinationId: "555",
        },
      ],
      events: [
        {
          transactionId: leadIdOf(sent.html),
          eventTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+04:00$/),
          eventSource: "WEB",
          adIdentifiers: {
            gclid: GCLID,
            landingPageDeviceInfo: { userAgent: sent.userAgent, ipAddress: sent.address },
          },
          // No LEAD_VALUE_AED: no value of ours, so the action's own default counts.
        },
      ],
    });
    expect(requests[1]?.events[0]).toMatchObject({
      transactionId: leadIdOf(second.html),
      adIdentifiers: { gbraid: `${GCLID}b` },
    });
    expect(requests[1]?.events[0]?.adIdentifiers).not.toHaveProperty("gclid");
    // One refresh, by the refresh_token grant; the token cached for the second call.
    const asked = networks.tokenRequests();
    expect(asked).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(asked[0]?.body))).toEqual({
      grant_type: "refresh_token",
      client_id: "1234-standin.apps.googleusercontent.com",
      client_secret: "GOCSPX-TOPSECRET",
      refresh_token: "1//TOPSECRET-refresh",
    });
    const calls = networks.google.taken.filter((r) => r.path === "/v1/events:ingest");
    expect(calls.map((r) => r.headers.authorization)).toEqual([
      `Bearer ${networks.tokens.at(-1)}`,
      `Bearer ${networks.tokens.at(-1)}`,
    ]);
    // The Data Manager API takes no developer token.
    expect(calls[0]?.headers).not.toHaveProperty("developer-token");
    const log = JSON.stringify(server.lines) + server.stderr();
    for (const secret of ["TOPSECRET", "ya29"]) expect(log).not.toContain(secret);
  }, 60_000);
});

describe("a lead without a click id", () => {
  it("never reaches Google Ads; TikTok and Snap get it, matched by address and user agent (decision 023)", async () => {
    const server = await start();
    const sent = await lead(server, "cta=whatsapp&utm_source=instagram&utm_campaign=Organic");
    await until(
      () => networks.tiktokEvents().length >= 1 && networks.snapEvents().length >= 1,
      "TikTok's and Snap's events",
    );
    await settled(server);
    expect(networks.tiktokEvents()).toHaveLength(1);
    expect(networks.tiktokEvents()[0]?.user).not.toHaveProperty("ttclid");
    expect(networks.tiktokEvents()[0]?.user.ip).toBe(sent.address);
    expect(networks.snapEvents()).toHaveLength(1);
    expect(networks.snapEvents()[0]?.user_data).not.toHaveProperty("sc_click_id");
    expect(networks.google.taken).toEqual([]);
  }, 60_000);
});

describe("what is no visit", () => {
  it.each([
    ["Global Privacy Control", { "sec-gpc": "1" }],
    ["a prefetch", { "sec-purpose": "prefetch" }],
    ["a bot", { "user-agent": BINGBOT }],
  ])(
    "%s: nothing reaches any network",
    async (_, headers) => {
      const server = await start();
      const sent = await lead(
        server,
        `cta=whatsapp&ttclid=${TTCLID}&ScCid=${SCCID}&gclid=${GCLID}`,
        headers,
      );
      expect(sent.html).not.toContain("data-lead-id");
      // A counted lead on the same server shows the networks are listening.
      await lead(server, "cta=email&utm_source=check");
      await until(() => networks.tiktokEvents().length >= 1, "the counted lead");
      await settled(server);
      expect(networks.tiktokEvents()).toHaveLength(1);
      expect(networks.snapEvents()).toHaveLength(1);
      expect(JSON.stringify(networks.tiktok.taken.concat(networks.snap.taken))).not.toContain(
        TTCLID,
      );
      expect(networks.google.taken).toEqual([]);
    },
    60_000,
  );
});

describe("a WhatsApp message that names no lead of this site", () => {
  it("reaches no network: a stranger's message, or a made-up Ref, is no conversion", async () => {
    const server = await start({
      WHATSAPP_VERIFY_TOKEN: "verify-token-for-tests",
      WHATSAPP_APP_SECRET: APP_SECRET,
    });
    await lead(server, `cta=whatsapp&utm_source=tiktok&ttclid=${TTCLID}`);
    await until(() => networks.tiktokEvents().length >= 1, "TikTok's Contact");
    for (const [id, text] of [
      ["wamid.stranger", "Hi, is the app free?"],
      ["wamid.made-up", "Hi!\n\nRef DRB-ZZZZZ"],
    ] as const) {
      const body = delivery(id, text);
      expect((await postToWebhook(server.origin, body, signed(body))).status).toBe(200);
    }
    // Answered once recorded: anything the messages made is owed by now.
    await settled(server);
    expect(networks.tiktokEvents().map((event) => event.event)).toEqual(["Contact"]);
    expect(networks.snapEvents()).toHaveLength(1);
    expect(networks.google.taken).toEqual([]);
  }, 60_000);
});

describe("an outage of every network", () => {
  it("delivers every lead to each once it is back, with the time it happened", async () => {
    const server = await start();
    await networks.setUp(false);
    const ids: string[] = [];
    const before = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 10; i++) {
      const sent = await lead(
        server,
        `cta=whatsapp&ttclid=${TTCLID}${i}&ScCid=${SCCID}${i}&gclid=${GCLID}${i}`,
      );
      ids.push(leadIdOf(sent.html) ?? "");
    }
    const after = Math.ceil(Date.now() / 1000);
    // Down long enough for several rounds of backoff.
    await sleep(4000);
    let values = await scrapeMetrics(server.metricsPort);
    for (const destination of ["tiktok", "snap", "google_ads"]) {
      expect(values.get(`darb_outbox_pending_events{destination="${destination}"}`)).toBe(10);
    }
    await networks.setUp(true);
    await until(
      () =>
        networks.tiktokEvents().length >= 10 &&
        networks.snapEvents().length >= 10 &&
        networks.conversions().length >= 10,
      "every lead at every network",
      60_000,
    );
    await settled(server);
    expect(
      networks
        .tiktokEvents()
        .map((e) => e.event_id)
        .sort(),
    ).toEqual([...ids].sort());
    expect(
      networks
        .snapEvents()
        .map((e) => e.event_id)
        .sort(),
    ).toEqual([...ids].sort());
    expect(
      networks
        .conversions()
        .map((c) => c.transactionId)
        .sort(),
    ).toEqual([...ids].sort());
    for (const event of networks.tiktokEvents()) {
      expect(event.event_time).toBeGreaterThanOrEqual(before);
      expect(event.event_time).toBeLessThanOrEqual(after);
    }
    values = await scrapeMetrics(server.metricsPort);
    for (const destination of ["tiktok", "snap", "google_ads"]) {
      expect(
        values.get(`darb_outbox_events_total{destination="${destination}",outcome="delivered"}`),
      ).toBe(10);
      expect(values.get(`darb_outbox_pending_events{destination="${destination}"}`)).toBe(0);
    }
  }, 120_000);
});

/** The built server started with `env`, until it exits: its exit code and stderr. */
async function startUp(env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: childServerEnv(await freePort(), env),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(timer);
  return { code, stderr };
}

describe("a bad network setting stops start-up", () => {
  it.each([
    ["TikTok's token without its pixel", { TIKTOK_PIXEL_CODE: "" }, "TIKTOK_PIXEL_CODE"],
    ["Snap's pixel that is no UUID", { SNAP_PIXEL_ID: "12345" }, "SNAP_PIXEL_ID"],
    [
      "Google without its refresh token",
      { GOOGLE_ADS_REFRESH_TOKEN: "" },
      "GOOGLE_ADS_REFRESH_TOKEN",
    ],
    [
      "Google's API over http elsewhere",
      { GOOGLE_DATA_MANAGER_ENDPOINT: "http://ads.example/v1?key=TOPSECRET" },
      "GOOGLE_DATA_MANAGER_ENDPOINT",
    ],
    [
      "a token with a space",
      { TIKTOK_ACCESS_TOKEN: "tiktok TOPSECRET token 0123" },
      "TIKTOK_ACCESS_TOKEN",
    ],
  ])(
    "%s: one line naming the variable, exit 1, no secret",
    async (_, overrides, variable) => {
      const { code, stderr } = await startUp(networks.env(overrides));
      expect(code).toBe(1);
      const lines = stderr.split("\n").filter((line) => line.trim() !== "");
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ type: "config_error", variable });
      expect(stderr).not.toContain("TOPSECRET");
    },
    40_000,
  );
});
