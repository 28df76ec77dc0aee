// Who a visitor is, with the settings people actually run: no proxy in front (TRUST_PROXY
// unset), the real server in its own process, clients on distinct loopback addresses (Node's
// localAddress), all on the same iPhone's user agent, as most of a campaign's audience is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BATCHES_PER_ADDRESS, LEADS_PER_ADDRESS } from "~/leads/limits.server";
import { type ChildServer, startChildServer } from "../support/child-server";
import { type RawAnswer, rawRequest } from "../support/raw-http";
import { IPHONE_SAFARI_18 } from "../support/user-agents";

let site: ChildServer;

beforeAll(async () => {
  // TRUST_PROXY empty is TRUST_PROXY unset: the default, no proxy trusted.
  site = await startChildServer({ TRUST_PROXY: "" });
}, 30_000);
afterAll(async () => {
  await site?.kill();
});

/** One request from `localAddress`, on a connection of its own. */
const from = (
  localAddress: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) =>
  rawRequest(site.origin, path, {
    ...options,
    localAddress,
    headers: { "user-agent": IPHONE_SAFARI_18, ...options.headers },
    agent: false,
  });

const leadsFor = (source: string) =>
  site.analytics.filter(
    (event) => event.name === "generate_lead" && event.params.source === source,
  );

const BATCH = JSON.stringify({ events: [{ name: "page_view", params: { page_location: "/" } }] });
const postBatch = (localAddress: string, userAgent = IPHONE_SAFARI_18) =>
  from(localAddress, "/api/events", {
    method: "POST",
    headers: {
      "user-agent": userAgent,
      "content-type": "application/json",
      "sec-fetch-site": "same-origin",
    },
    body: BATCH,
  });

async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("visitors on different addresses are different visitors", () => {
  it("counts three leads for three addresses on the same phone model within a second", async () => {
    const answers = await Promise.all(
      ["127.0.0.2", "127.0.0.3", "127.0.0.4"].map((address) =>
        from(address, "/thank-you?cta=whatsapp&source=three-phones"),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    await until(() => leadsFor("three-phones").length >= 3);
    const leads = leadsFor("three-phones");
    expect(leads).toHaveLength(3);
    expect(new Set(leads.map((lead) => lead.client_id)).size).toBe(3);
    // The same visitor coming back is still the same lead.
    await from("127.0.0.3", "/thank-you?cta=whatsapp&source=three-phones");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(leadsFor("three-phones")).toHaveLength(3);
  });

  it("lets 80 addresses on the same phone model each post their events", async () => {
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, n) => postBatch(`127.0.1.${n + 1}`)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 204)).toHaveLength(80);
  });
});

describe("one address cannot pose as many", () => {
  it("answers 429 to one address changing its user agent with every batch, and to it alone", async () => {
    const flooding = "127.0.2.1";
    const statuses: number[] = [];
    for (let n = 0; n < BATCHES_PER_ADDRESS.capacity + 100; n += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, k) =>
          postBatch(flooding, `${IPHONE_SAFARI_18} flood/${n + k}`),
        ),
      );
      statuses.push(...batch.map((answer) => answer.status));
    }
    const accepted = statuses.filter((status) => status === 204).length;
    // The address's burst, and the few it earned back while the flood lasted.
    expect(accepted).toBeGreaterThanOrEqual(BATCHES_PER_ADDRESS.capacity);
    expect(accepted).toBeLessThan(BATCHES_PER_ADDRESS.capacity + 60);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(40);
    // Its neighbour on the next address is untouched.
    expect((await postBatch("127.0.2.2")).status).toBe(204);
  }, 30_000);

  it("stops counting leads from one address past its cap, while it still gets every hand-off", async () => {
    const flooding = "127.0.3.1";
    const tries = LEADS_PER_ADDRESS.capacity + 40;
    const answers: RawAnswer[] = [];
    for (let n = 0; n < tries; n += 20) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(20, tries - n) }, (_, k) =>
            from(flooding, `/thank-you?cta=whatsapp&source=inflate-${n + k}`, {
              // A build number of its own each time: every request another phone, to the site.
              headers: { "user-agent": IPHONE_SAFARI_18.replace("15E148", `15E${1000 + n + k}`) },
            }),
          ),
        )),
      );
    }
    // Every visitor still gets the page and its way on to WhatsApp.
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.every((answer) => answer.body.includes("https://wa.me/"))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const counted = site.analytics.filter(
      (event) =>
        event.name === "generate_lead" && String(event.params.source).startsWith("inflate-"),
    ).length;
    // The burst, plus at most one earned back in the minute this took.
    expect(counted).toBeGreaterThanOrEqual(LEADS_PER_ADDRESS.capacity);
    expect(counted).toBeLessThanOrEqual(LEADS_PER_ADDRESS.capacity + 1);
    // Someone else's lead still counts.
    await from("127.0.3.2", "/thank-you?cta=whatsapp&source=after-the-flood");
    await until(() => leadsFor("after-the-flood").length === 1);
    expect(leadsFor("after-the-flood")).toHaveLength(1);
  }, 30_000);

  it("tells the operator how many leads and batches it refused", async () => {
    process.kill(site.pid, "SIGTERM");
    const line = await site.waitForLine((entry) => entry.type === "analytics_shutdown");
    expect(line.leads_capped).toBeGreaterThanOrEqual(39);
    expect(line.batches_refused).toBeGreaterThanOrEqual(40);
    expect((await site.exited).code).toBe(0);
  });
});
