// What the ad platforms learn after the tap (docs/decisions/026-chat-and-stage-events.md), on the
// built server with a loopback stand-in for every destination: a lead's WhatsApp chat reaches
// each network once with the lead's own click and the phone's hash; the team's stages, through
// `npm run leads -- stage` and POST /api/leads/stage, reach GA4 and each network once with their
// value; and the raw phone number is nowhere: not in the ledger, the log or any request.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AdNetworks, startAdNetworks } from "../support/ad-networks";
import {
  type ChildServer,
  freePort,
  freshDataDir,
  ROOT,
  startChildServer,
  until,
} from "../support/child-server";
import { type Destinations, gaEvents, startDestinations } from "../support/destinations";
import { untilOwedNothing } from "../support/metrics-scrape";
import { IPHONE_SAFARI_18 } from "../support/user-agents";
import { APP_SECRET, delivery, postToWebhook, signed } from "../support/whatsapp-webhook";

const TOKEN = "stage-api-token-0123456789abcdef0123456789";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

let networks: AdNetworks;
let destinations: Destinations;
const servers: ChildServer[] = [];
let visitors = 0;

beforeAll(async () => {
  networks = await startAdNetworks();
  destinations = await startDestinations();
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  networks.reset();
  destinations.ga.length = 0;
  destinations.meta.length = 0;
});
afterAll(async () => {
  await networks?.close();
  await destinations?.close();
});

/** The built server with every destination on; `settled` once it owes none of them anything. */
async function start(env: Record<string, string> = {}) {
  const dir = freshDataDir();
  const metricsPort = await freePort();
  const server = await startChildServer(
    networks.env({
      DATA_DIR: dir,
      METRICS_PORT: String(metricsPort),
      GA_MEASUREMENT_ID: "G-STAGES123",
      GA_API_SECRET: "stages_secret_1",
      GA_MP_ENDPOINT: destinations.gaEndpoint,
      META_PIXEL_ID: "1234567890",
      META_ACCESS_TOKEN: "stages_access_token_0123456789",
      META_CAPI_ENDPOINT: destinations.metaEndpoint,
      GOOGLE_ADS_CHAT_CONVERSION_ACTION: "556",
      GOOGLE_ADS_INSTALLED_CONVERSION_ACTION: "558",
      WHATSAPP_VERIFY_TOKEN: "verify-token-for-tests",
      WHATSAPP_APP_SECRET: APP_SECRET,
      LEADS_API_TOKEN: TOKEN,
      LEAD_VALUE_AED: "chat=5,qualified=40,installed=120",
      ...env,
    }),
  );
  servers.push(server);
  return { server, dir, settled: () => untilOwedNothing(metricsPort) };
}

/** A lead from a new visitor; its reference and id from the page. */
async function lead(server: ChildServer, query: string) {
  visitors += 1;
  const response = await fetch(`${server.origin}/thank-you?cta=whatsapp&${query}`, {
    headers: { "user-agent": IPHONE_SAFARI_18, "x-forwarded-for": `198.51.100.${visitors}` },
  });
  const html = await response.text();
  const ref = /Ref%20(DRB-[2-9A-Z]{5})/.exec(html)?.[1] ?? "";
  const id = /data-lead-id="([^"]+)"/.exec(html)?.[1] ?? "";
  expect(ref).not.toBe("");
  return { ref, id };
}

/** The driver's message quoting `ref`, from WhatsApp number `phone`, signed. */
async function chat(server: ChildServer, messageId: string, ref: string, phone: string) {
  const body = delivery(messageId, `Hi!\n\nRef ${ref}`).replaceAll("971500000001", phone);
  const answer = await postToWebhook(server.origin, body, signed(body));
  expect(answer.status).toBe(200);
}

const CLICKS = {
  ttclid: "E.C.P.tiktok-click-01",
  ScCid: "5f4c3b2a-sc-click-01",
  fbclid: "IwAR-meta-click-01",
  gclid: "Cj0-google-click-01",
} as const;

const PHONES = {
  ttclid: "971501111111",
  ScCid: "971502222222",
  fbclid: "971503333333",
  gclid: "971504444444",
} as const;

describe("a lead's chat", () => {
  it("reaches every network once, on the lead's own click and with the hashed phone; a repeat sends nothing more", async () => {
    const { server, dir, settled } = await start();
    const leads: Record<string, { ref: string; id: string }> = {};
    for (const [name, value] of Object.entries(CLICKS)) {
      leads[name] = await lead(server, `utm_source=ads&${name}=${encodeURIComponent(value)}`);
    }
    for (const name of Object.keys(CLICKS) as (keyof typeof CLICKS)[]) {
      await chat(server, `wamid.${name}`, leads[name]?.ref ?? "", PHONES[name]);
    }
    const chatEvents = () => ({
      tiktok: networks.tiktokEvents().filter((e) => e.event === "SubmitForm"),
      snap: networks.snapEvents().filter((e) => e.event_name === "CUSTOM_EVENT_1"),
      meta: destinations.meta.filter((e) => e.event_name === "Contact"),
      google: networks.conversions().filter((e) => e.action === "556"),
    });
    await until(() => {
      const seen = chatEvents();
      return seen.tiktok.length >= 4 && seen.snap.length >= 4 && seen.meta.length >= 4;
    }, "every network's chat events");
    await until(() => chatEvents().google.length >= 1, "Google's chat conversion");
    // A delivery Meta sends again changes nothing.
    await chat(server, "wamid.ttclid", leads.ttclid?.ref ?? "", PHONES.ttclid);
    await settled();
    const seen = chatEvents();
    expect(seen.tiktok).toHaveLength(4);
    expect(seen.snap).toHaveLength(4);
    expect(seen.meta).toHaveLength(4);
    // Google counts only the lead its own click brought.
    expect(seen.google).toHaveLength(1);

    const tiktok = seen.tiktok.find((e) => e.event_id === `${leads.ttclid?.id}.chat`);
    expect(tiktok?.user).toMatchObject({
      ttclid: CLICKS.ttclid,
      phone: sha256(`+${PHONES.ttclid}`),
    });
    const snap = seen.snap.find((e) => e.event_id === `${leads.ScCid?.id}.chat`);
    expect(snap?.user_data).toMatchObject({
      sc_click_id: CLICKS.ScCid,
      ph: sha256(PHONES.ScCid),
    });
    const meta = seen.meta.find((e) => e.event_id === `${leads.fbclid?.id}.chat`);
    expect(meta).toMatchObject({
      action_source: "chat",
      user_data: { ph: sha256(PHONES.fbclid), fbc: expect.stringContaining(CLICKS.fbclid) },
      custom_data: { currency: "AED", value: 5 },
    });
    expect(seen.google[0]).toMatchObject({
      transactionId: leads.gclid?.id,
      adIdentifiers: { gclid: CLICKS.gclid },
      userData: { userIdentifiers: [{ phoneNumber: sha256(`+${PHONES.gclid}`) }] },
      conversionValue: 5,
      currency: "AED",
    });
    // No network hears of another's click.
    expect(JSON.stringify(seen.tiktok)).not.toContain(CLICKS.ScCid);
    expect(JSON.stringify(seen.snap)).not.toContain(CLICKS.ttclid);

    // The number itself is nowhere: not kept, not logged, not sent.
    await server.kill();
    const everything = [
      readFileSync(join(dir, "leads.jsonl"), "utf8"),
      JSON.stringify(server.lines),
      server.stderr(),
      JSON.stringify(networks.tiktok.taken),
      JSON.stringify(networks.snap.taken),
      JSON.stringify(networks.google.taken),
      JSON.stringify(destinations.meta),
      JSON.stringify(destinations.ga),
    ].join("\n");
    for (const phone of Object.values(PHONES)) expect(everything).not.toContain(phone);
  }, 120_000);
});

/** `npm run leads -- stage …` against `server`, as an operator runs it beside the server. */
function stageCommand(server: ChildServer, args: string[]) {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, "server-build/leads-report.js"), "stage", ...args],
    {
      encoding: "utf8",
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        PORT: new URL(server.origin).port,
        HOST: "127.0.0.1",
        LEADS_API_TOKEN: TOKEN,
      },
    },
  );
  return { code: run.status, out: run.stdout, err: run.stderr };
}

const postStage = (server: ChildServer, body: object, token = TOKEN) =>
  fetch(`${server.origin}/api/leads/stage`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

describe("a lead's later stages", () => {
  it("from the command line and the API: GA4's lead event with its value on the lead's ids, each network once, a repeat nothing", async () => {
    const { server, dir, settled } = await start();
    const tapped = await lead(
      server,
      `utm_source=ads&ttclid=${CLICKS.ttclid}&gclid=${CLICKS.gclid}`,
    );
    await chat(server, "wamid.stages", tapped.ref, PHONES.gclid);
    await until(() => gaEvents(destinations.ga, "working_lead").length >= 1, "the chat in GA4");
    const generated = gaEvents(destinations.ga, "generate_lead")[0];

    const first = stageCommand(server, [tapped.ref, "installed", "--value", "150"]);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain(`${tapped.ref} is installed`);
    await until(
      () => gaEvents(destinations.ga, "close_convert_lead").length >= 1,
      "GA4's close_convert_lead",
    );
    await until(
      () => networks.tiktokEvents().some((e) => e.event === "CompletePayment"),
      "TikTok's CompletePayment",
    );
    await until(
      () => networks.conversions().some((e) => e.action === "558"),
      "Google's installed conversion",
    );
    // The same stage again, by the API this time: nothing changes.
    const again = await postStage(server, { ref: tapped.ref, stage: "installed", value: 150 });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ recorded: false });
    expect(stageCommand(server, [tapped.ref, "installed"]).out).toContain("already");
    await settled();

    const converted = gaEvents(destinations.ga, "close_convert_lead");
    expect(converted).toHaveLength(1);
    expect(converted[0]).toMatchObject({
      client_id: generated?.client_id,
      params: {
        currency: "AED",
        value: 150,
        lead_status: "installed",
        session_id: generated?.params.session_id,
      },
    });
    const paid = networks.tiktokEvents().filter((e) => e.event === "CompletePayment");
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      event_id: `${tapped.id}.installed`,
      user: { ttclid: CLICKS.ttclid, phone: sha256(`+${PHONES.gclid}`) },
    });
    const installed = networks.conversions().filter((e) => e.action === "558");
    expect(installed).toHaveLength(1);
    expect(installed[0]).toMatchObject({ transactionId: tapped.id, conversionValue: 150 });

    // A stage out of order, an unknown reference, a bad token, a bad body: a clear 4xx.
    expect((await postStage(server, { ref: tapped.ref, stage: "qualified" })).status).toBe(409);
    expect((await postStage(server, { ref: "DRB-22222", stage: "qualified" })).status).toBe(404);
    const refused = await postStage(
      server,
      { ref: tapped.ref, stage: "lost" },
      "wrong-token-0123456789abcdef0123",
    );
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe("Bearer");
    expect((await postStage(server, { ref: tapped.ref, stage: "won" })).status).toBe(400);
    // npm run leads shows the stage and its value beside the lead's campaign.
    const report = spawnSync(
      process.execPath,
      [join(ROOT, "server-build/leads-report.js"), "--csv", "--since", "2d"],
      {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dir },
      },
    );
    expect(report.status, report.stderr).toBe(0);
    const [header, row] = report.stdout.split("\r\n");
    expect(header?.split(",").slice(-4)).toEqual(["qualified", "installed", "lost", "value AED"]);
    expect(row?.split(",").slice(-4)).toEqual(["1", "1", "0", "150"]);
  }, 120_000);
});
