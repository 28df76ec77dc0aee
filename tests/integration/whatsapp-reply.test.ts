// The chat's automatic first reply on the built server, with a loopback stand-in for the
// WhatsApp Cloud API: a lead's first message is answered once, in the lead's language, with the
// link for the phone it tapped on, whatever befalls the API or the process meanwhile; never
// past WhatsApp's 24-hour window, never to a chat without a known reference; and the driver's
// number is in clear nowhere the site writes.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ChildServer,
  freePort,
  freshDataDir,
  ROOT,
  sleep,
  startChildServer,
  until,
} from "../support/child-server";
import { clockAhead } from "../support/faketime";
import { type LoopbackServer, startLoopbackServer } from "../support/loopback-server";
import { scrapeMetrics, untilOwedNothing } from "../support/metrics-scrape";
import { ANDROID_CHROME, IPHONE_SAFARI_18 } from "../support/user-agents";
import { APP_SECRET, delivery, postToWebhook, signed } from "../support/whatsapp-webhook";

const TOKEN = "EAAG_system_user_token_TOPSECRET_0123456789";
const PHONE_NUMBER_ID = "106540352242922";
const IOS = "https://testflight.apple.com/join/AbCdEf12";
const ANDROID = "https://play.google.com/apps/testing/ae.darb.app";
const MESSAGES = `/v23.0/${PHONE_NUMBER_ID}/messages`;

type Sent = { authorization?: string; to: string; text: string };

/** The Cloud API's stand-in: answers as WhatsApp does, or with `refusal` once set; can go down. */
async function startCloudApi() {
  const sent: Sent[] = [];
  let refusal: { status: number; body: string } | null = null;
  const server: LoopbackServer = await startLoopbackServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url !== MESSAGES) return response.writeHead(404).end();
      if (refusal) {
        response.writeHead(refusal.status, { "content-type": "application/json" });
        return response.end(refusal.body);
      }
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        to: string;
        text: { body: string };
      };
      sent.push({
        authorization: request.headers.authorization,
        to: body.to,
        text: body.text.body,
      });
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          messaging_product: "whatsapp",
          contacts: [{ input: body.to, wa_id: body.to }],
          messages: [{ id: `wamid.reply${sent.length}` }],
        }),
      );
    });
  });
  return {
    sent,
    base: `${server.origin}/v23.0`,
    refuse: (status: number, body: string) => {
      refusal = { status, body };
    },
    setUp: (up: boolean) => (up ? server.start() : server.stop()),
    close: server.stop,
  };
}
type CloudApi = Awaited<ReturnType<typeof startCloudApi>>;

const servers: ChildServer[] = [];
const apis: CloudApi[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  for (const api of apis.splice(0)) await api.close();
});

async function setUp({ links = true } = {}) {
  const api = await startCloudApi();
  apis.push(api);
  const dir = freshDataDir();
  const metricsPort = await freePort();
  const env = {
    DATA_DIR: dir,
    METRICS_PORT: String(metricsPort),
    WHATSAPP_VERIFY_TOKEN: "verify-token-for-tests",
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_ACCESS_TOKEN: TOKEN,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_API_ENDPOINT: api.base,
    ...(links ? { BETA_LINK_IOS: IOS, BETA_LINK_ANDROID: ANDROID } : {}),
  };
  const start = async (more: Record<string, string> = {}) => {
    const server = await startChildServer({ ...env, ...more });
    servers.push(server);
    return server;
  };
  return {
    api,
    dir,
    metricsPort,
    start,
    server: await start(),
    settled: () => untilOwedNothing(metricsPort, 40_000),
  };
}

let visitors = 0;
/** A WhatsApp lead from a new visitor on `path` with `userAgent`: its reference. */
async function lead(server: ChildServer, userAgent: string, path = "/thank-you") {
  visitors += 1;
  const response = await fetch(`${server.origin}${path}?cta=whatsapp&utm_source=ig`, {
    headers: { "user-agent": userAgent, "x-forwarded-for": `198.51.100.${visitors}` },
  });
  const ref = /%20(DRB-[2-9A-Z]{5})/.exec(await response.text())?.[1] ?? "";
  expect(ref).not.toBe("");
  return ref;
}

/** The driver's message, quoting `ref` (or not), from `phone`, signed as Meta signs it. */
async function message(server: ChildServer, id: string, text: string, phone: string) {
  const body = delivery(id, text).replaceAll("971500000001", phone);
  const answer = await postToWebhook(server.origin, body, signed(body));
  expect(answer.status).toBe(200);
  return body;
}

/** Every file under DATA_DIR, as text: what a disk, a backup or a copy would hold. */
const ledgerText = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => {
      try {
        return readFileSync(join(dir, name), "utf8");
      } catch {
        return "";
      }
    })
    .join("\n");

/** `npm run leads`, as an operator runs it next to the server. */
function leadsReport(dir: string): string {
  const run = spawnSync(process.execPath, [join(ROOT, "server-build/leads-report.js")], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dir },
  });
  expect(run.stderr).toBe("");
  return run.stdout;
}

const metric = async (port: number, outcome: string) =>
  (await scrapeMetrics(port)).get(
    `darb_outbox_events_total{destination="whatsapp",outcome="${outcome}"}`,
  ) ?? 0;

describe("the chat's automatic first reply", { timeout: 180_000 }, () => {
  it("answers an iPhone's lead with the iPhone link, an Android's with the Android one, once each, within 5 s", async () => {
    const { api, dir, server, settled } = await setUp();
    const iphone = await lead(server, IPHONE_SAFARI_18);
    const android = await lead(server, ANDROID_CHROME);

    const asked = performance.now();
    const first = await message(server, "wamid.ios1", `Hi!\n\nRef ${iphone}`, "971501111111");
    await until(() => api.sent.length === 1, "the iPhone lead's reply", 5000);
    expect(performance.now() - asked).toBeLessThan(5000);
    await message(server, "wamid.and1", `Hi!\n\nRef ${android}`, "971502222222");
    await until(() => api.sent.length === 2, "the Android lead's reply", 5000);

    // Meta sends a delivery again until it has a 200; a second message is no second reply.
    await postToWebhook(server.origin, first, signed(first));
    await message(server, "wamid.ios2", `Thanks!\n\nRef ${iphone}`, "971501111111");
    await settled();
    expect(api.sent).toHaveLength(2);

    const [toIphone, toAndroid] = api.sent;
    expect(toIphone).toMatchObject({ authorization: `Bearer ${TOKEN}`, to: "971501111111" });
    expect(toIphone?.text).toContain(IOS);
    expect(toIphone?.text).not.toContain(ANDROID);
    expect(toAndroid).toMatchObject({ to: "971502222222" });
    expect(toAndroid?.text).toContain(ANDROID);
    expect(toAndroid?.text).not.toContain(IOS);

    // The number and the token are nowhere the site writes: its ledger, its log.
    const kept = `${ledgerText(dir)}\n${JSON.stringify(server.lines)}\n${server.stderr()}`;
    for (const secret of ["971501111111", "971502222222", TOKEN]) {
      expect(kept).not.toContain(secret);
    }
    // The operator's report: both leads chatted, and both were sent their link.
    expect(leadsReport(dir)).toMatch(/chat rate\s+links sent/);
    expect(leadsReport(dir)).toMatch(/\s2\s+2\s+100%\s+2\s/);
  });

  it("answers an Arabic lead in Arabic; without links, says when a person answers", async () => {
    const { api, server, settled } = await setUp({ links: false });
    const ref = await lead(server, IPHONE_SAFARI_18, "/ar/thank-you");
    await message(server, "wamid.ar1", `مرحبًا\n\nRef ${ref}`, "971503333333");
    await settled();
    expect(api.sent).toHaveLength(1);
    expect(api.sent[0]?.text).toContain("شكرًا لمراسلتك درب");
    expect(api.sent[0]?.text).toContain("بين 8 صباحًا و10 مساءً");
    expect(api.sent[0]?.text).not.toContain("https://");
  });

  it("never answers a chat that quotes no known reference", async () => {
    const { api, server, settled } = await setUp();
    await lead(server, IPHONE_SAFARI_18);
    await message(server, "wamid.none1", "Hi, is this Darb?", "971504444444");
    await message(server, "wamid.none2", "Hi!\n\nRef DRB-ZZZZZ", "971504444444");
    await settled();
    expect(api.sent).toEqual([]);
  });

  it("sends the reply once WhatsApp is back after a minute down", async () => {
    const { api, server, settled } = await setUp();
    await api.setUp(false);
    const ref = await lead(server, ANDROID_CHROME);
    await message(server, "wamid.down1", `Hi!\n\nRef ${ref}`, "971505555555");
    // The outage itself is what is tested: a minute of WhatsApp refusing connections.
    await sleep(60_000);
    expect(api.sent).toEqual([]);
    await api.setUp(true);
    await until(() => api.sent.length === 1, "the reply after the outage", 40_000);
    await settled();
    expect(api.sent).toHaveLength(1);
    expect(api.sent[0]?.text).toContain(ANDROID);
  });

  it("sends the reply once after a SIGKILL and a restart, and the lead shows the link sent", async () => {
    const { api, dir, server, start, settled } = await setUp();
    await api.setUp(false);
    const ref = await lead(server, IPHONE_SAFARI_18);
    await message(server, "wamid.kill1", `Hi!\n\nRef ${ref}`, "971506666666");
    await server.kill();
    await api.setUp(true);
    await start();
    await until(() => api.sent.length === 1, "the reply after the restart", 40_000);
    await settled();
    expect(api.sent).toHaveLength(1);
    expect(api.sent[0]).toMatchObject({ to: "971506666666" });
    expect(leadsReport(dir)).toMatch(/\s1\s+1\s+100%\s+1\s/);
  });

  it("gives up a reply still owed 24 hours after the driver's message, counted, never sent", async () => {
    const { api, server, start, metricsPort } = await setUp();
    await api.setUp(false);
    const ref = await lead(server, IPHONE_SAFARI_18);
    await message(server, "wamid.late1", `Hi!\n\nRef ${ref}`, "971507777777");
    await server.kill();
    await api.setUp(true);
    const later = await start(clockAhead("+25h"));
    const line = await later.waitForLine(
      (line) => line.type === "delivery_given_up" && line.destination === "whatsapp",
      20_000,
    );
    expect(line).toMatchObject({ reason: "past the destination's age limit" });
    expect(typeof line.lead).toBe("string");
    await untilOwedNothing(metricsPort, 20_000);
    expect(await metric(metricsPort, "given_up")).toBe(1);
    expect(api.sent).toEqual([]);
  });

  it("says a refusal in one line with WhatsApp's code and the lead, counted, and sends it no more", async () => {
    const { api, server, metricsPort, settled } = await setUp();
    api.refuse(
      400,
      JSON.stringify({
        error: { message: "Message undeliverable", type: "OAuthException", code: 131026 },
      }),
    );
    const ref = await lead(server, ANDROID_CHROME);
    await message(server, "wamid.refused1", `Hi!\n\nRef ${ref}`, "971508888888");
    const line = await server.waitForLine(
      (line) => line.type === "delivery_refused" && line.destination === "whatsapp",
      10_000,
    );
    expect(line).toMatchObject({ status: 400, code: "131026" });
    expect(typeof line.lead).toBe("string");
    await settled();
    expect(await metric(metricsPort, "refused")).toBe(1);
    expect(JSON.stringify(server.lines)).not.toContain("971508888888");
  });
});
