// A network is one module (docs/decisions/025-destination-registry.md): a network that exists
// only in the tests (tests/support/echo-network.ts), registered with the built server and no
// other file, hears every lead's tap, its chat with the phone's hash, and its later stages,
// through the ledger and the outbox like any other, and the privacy notice names it.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../support/child-server";
import { echoNetwork } from "../support/echo-network";
import { startLoopbackServer } from "../support/loopback-server";
import { directFetch, startBuiltServer } from "../support/server";
import { IPHONE_SAFARI_18 } from "../support/user-agents";
import { APP_SECRET, delivery, signed } from "../support/whatsapp-webhook";

const TOKEN = "registry-test-token-0123456789abcdef0123";
const heard: Array<Record<string, unknown>> = [];
let echo: Awaited<ReturnType<typeof startLoopbackServer>>;
let site: Awaited<ReturnType<typeof startBuiltServer>>;

beforeAll(async () => {
  echo = await startLoopbackServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      heard.push(JSON.parse(Buffer.concat(chunks).toString()));
      response.writeHead(200).end("{}");
    });
  });
  site = await startBuiltServer(
    {
      SITE_URL: "https://darb.example",
      TRUST_PROXY: "1",
      ANALYTICS_SALT: "registry-test-salt-0123",
      ECHO_ENDPOINT: echo.origin,
      WHATSAPP_VERIFY_TOKEN: "verify-token-for-tests",
      WHATSAPP_APP_SECRET: APP_SECRET,
      LEADS_API_TOKEN: TOKEN,
      LEAD_VALUE_AED: "installed=99",
    },
    // The network joins the build's own registry before the settings are read.
    { before: (server) => server.registerDestination(echoNetwork) },
  );
}, 60_000);
afterAll(async () => {
  await site?.close();
  await echo?.stop();
});

describe("a network added as one module", () => {
  it("hears the tap, the chat with the phone's hash, and a stage; the privacy notice names it", async () => {
    const page = await (
      await directFetch(`${site.origin}/thank-you?cta=whatsapp&utm_source=ig`, {
        headers: { "user-agent": IPHONE_SAFARI_18, "x-forwarded-for": "203.0.113.90" },
      })
    ).text();
    const ref = /Ref%20(DRB-[2-9A-Z]{5})/.exec(page)?.[1] ?? "";
    await until(() => heard.some((body) => body.moment === "tap"), "the tap");

    const body = delivery("wamid.echo", `Hello\n\nRef ${ref}`).replaceAll(
      "971500000001",
      "971509999999",
    );
    const chat = await directFetch(`${site.origin}/api/whatsapp/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": signed(body) },
      body,
    });
    expect(chat.status).toBe(200);
    await until(() => heard.some((body) => body.moment === "chat"), "the chat");

    const stage = await directFetch(`${site.origin}/api/leads/stage`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ ref, stage: "installed" }),
    });
    expect(stage.status).toBe(200);
    await until(() => heard.some((body) => body.moment === "installed"), "the stage");

    const lead = heard.find((body) => body.moment === "tap")?.lead;
    expect(heard).toEqual([
      { moment: "tap", lead, value: 0 },
      {
        moment: "chat",
        lead,
        phone: createHash("sha256").update("+971509999999").digest("hex"),
      },
      {
        moment: "installed",
        lead,
        value: 99,
        phone: createHash("sha256").update("+971509999999").digest("hex"),
      },
    ]);
    const privacy = await (await directFetch(`${site.origin}/privacy`)).text();
    expect(privacy).toContain("Echo (a test network)");
    const arabic = await (await directFetch(`${site.origin}/ar/privacy`)).text();
    expect(arabic).toContain("صدى (شبكة للاختبار)");
  }, 60_000);
});
