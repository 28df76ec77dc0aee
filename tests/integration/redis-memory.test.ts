// What Redis holds per lead, measured on a real redis-server with deploy/compose.yaml's flags
// behind the production server: the shared ledger's copy of each lead and chat (darb:ledger:*,
// kept for LEAD_RETENTION_DAYS) and the limits' keys (darb:{…}:*, an hour at most). Then Redis
// is filled with 90 days of such copies, 1,000 leads and 1,000 chat messages a day, as those
// real ones are, and compose's maxmemory must hold that twice over: deploy/README.md sizes Redis
// from these figures.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type ChildServer, ROOT, sleep, startChildServer } from "../support/child-server";
import { rawRequest } from "../support/raw-http";
import { type RedisServer, startRedis } from "../support/redis-server";
import { IPHONE_SAFARI_18 } from "../support/user-agents";
import { APP_SECRET, delivery, postToWebhook, signed } from "../support/whatsapp-webhook";

const DAY_S = 86_400;
const LEADS = 500;
const CHATS = 250;
const VISITS = 500;
/** The campaign README's sizing is for: 1,000 leads a day, each one chat message, 90 days. */
const PER_DAY = 1000;
const DAYS = 90;

let redis: RedisServer;
let site: ChildServer;
let client: Redis;

beforeAll(async () => {
  redis = await startRedis();
  site = await startChildServer({
    REDIS_URL: redis.url,
    WHATSAPP_VERIFY_TOKEN: "memory-test-token",
    WHATSAPP_APP_SECRET: APP_SECRET,
  });
  client = new Redis(redis.url);
}, 60_000);

afterAll(async () => {
  client?.disconnect();
  await site?.kill();
  await redis?.close();
});

async function usedMemory(): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await client.info("memory"))?.[1]);
}

/** What MEMORY USAGE says the keys matching `pattern` take, each on average, and their TTL. */
async function measure(pattern: string) {
  const keys = await client.keys(pattern);
  let bytes = 0;
  for (const key of keys) bytes += Number(await client.memory("USAGE", key, "SAMPLES", 0));
  return { count: keys.length, each: bytes / keys.length, ttl: await client.ttl(keys[0] ?? "") };
}

/**
 * A visitor from an Instagram ad tapping WhatsApp, as a campaign's leads arrive: its own address
 * and phone, the campaign's words and Meta's click id as Meta writes it.
 */
function tapWhatsapp(n: number) {
  const fbclid = `IwZXh0bgNhZW0BMABhZGlkAasX${String(n).padStart(8, "0")}_aem_AeQb3kZ7${"x".repeat(24)}`;
  const query = new URLSearchParams({
    cta: "whatsapp",
    source: "instagram",
    utm_source: "instagram",
    utm_medium: "paid_social",
    utm_campaign: "dubai_drivers_launch",
    utm_content: "reel_cashback_v2",
    fbclid,
  });
  return rawRequest(site.origin, `/thank-you?${query}`, {
    headers: {
      "user-agent": IPHONE_SAFARI_18.replace("15E148", `15E${n}`),
      "x-forwarded-for": `10.77.${n >> 8}.${n & 255}`,
    },
    agent: false,
  });
}

/** A page's batch of events from a visitor who leaves no lead. */
function postEvents(n: number) {
  return rawRequest(site.origin, "/api/events", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "sec-fetch-site": "same-origin",
      "user-agent": IPHONE_SAFARI_18.replace("15E148", `15F${n}`),
      "x-forwarded-for": `10.78.${n >> 8}.${n & 255}`,
    },
    body: JSON.stringify({
      events: [{ name: "page_view", params: { page_location: "/?utm_source=instagram" } }],
    }),
    agent: false,
  });
}

async function until(check: () => Promise<boolean>, what: string, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

/** compose.yaml's Redis maxmemory, in bytes. */
function composeMaxmemory(): number {
  const compose = parse(readFileSync(join(ROOT, "deploy", "compose.yaml"), "utf8"), {
    merge: true,
  }) as { services: { redis: { command: string[] } } };
  const command = compose.services.redis.command;
  const value = command[command.indexOf("--maxmemory") + 1] ?? "";
  const [, number, unit = ""] = /^(\d+)(mb|gb)?$/i.exec(value) ?? [];
  return Number(number) * ({ mb: 2 ** 20, gb: 2 ** 30 }[unit.toLowerCase()] ?? 1);
}

describe("Redis's memory per lead", { timeout: 180_000 }, () => {
  it("holds 90 days of 1,000 leads and chat messages a day within half of compose's maxmemory", async () => {
    const empty = await usedMemory();
    const refs: string[] = [];
    for (let n = 0; n < LEADS; n += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, k) => tapWhatsapp(n + k)));
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        refs.push(/Ref%20(DRB-[2-9A-Z]{5})/.exec(answer.body)?.[1] ?? "");
      }
    }
    for (let n = 0; n < CHATS; n++) {
      const body = delivery(`wamid.HBgMOTcxNTAwMDAwMDAxFQIAEhggQzU${n}`, `Hi Darb! Ref ${refs[n]}`);
      expect((await postToWebhook(site.origin, body, signed(body))).status).toBe(200);
    }
    await until(
      async () =>
        (await client.keys("darb:ledger:lead:*")).length === LEADS &&
        (await client.keys("darb:ledger:chat:*")).length === CHATS,
      "every lead and chat copied to Redis",
    );
    const used = (await usedMemory()) - empty;
    const kept = {
      lead: await measure("darb:ledger:lead:*"),
      ref: await measure("darb:ledger:ref:*"),
      chat: await measure("darb:ledger:chat:*"),
      claim: await measure("darb:ledger:claim:*"),
    };
    const hour = {
      mark: await measure("darb:{*}:lead:*"),
      session: await measure("darb:{*}:session:*"),
      bucket: await measure("darb:{*}:leads"),
    };
    const shortLived = Object.values(hour).reduce((sum, { count, each }) => sum + count * each, 0);
    // A visit that posts its events and leaves no lead: its session and its limits.
    const beforeVisits = await usedMemory();
    for (let n = 0; n < VISITS; n += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, k) => postEvents(n + k)));
      for (const answer of answers) expect(answer.status).toBe(204);
    }
    const visit = ((await usedMemory()) - beforeVisits) / VISITS;
    // Kept for the retention (a claim for a week), on top of the short-lived keys.
    for (const [name, { count, ttl }] of Object.entries(kept)) {
      expect(count, name).toBeGreaterThan(0);
      expect(ttl, name).toBeGreaterThan((name === "claim" ? 6 : 89) * DAY_S);
    }
    for (const [name, { ttl }] of Object.entries(hour)) expect(ttl, name).toBeLessThanOrEqual(3600);

    // 90 days of the same copies, written as the shared ledger writes them (SET … PX), with the
    // real ones' values: 1,000 leads and 1,000 chat messages a day, each claim kept a week.
    // A lead's copy as it is once its chat came: the larger, with its chat's facts.
    const chatted = (await client.get(`darb:ledger:ref:${refs[0]}`)) ?? "";
    const lead = (await client.get(`darb:ledger:lead:${chatted}`)) ?? "";
    expect(lead).toContain('"phone"');
    const chat = (await client.get((await client.keys("darb:ledger:chat:*"))[0] ?? "")) ?? "";
    await client.flushall();
    // Measured without a cap: past it Redis would evict, and the figure would be the cap.
    await client.config("SET", "maxmemory", "0");
    const before = await usedMemory();
    const id = (day: number, n: number) =>
      `${String(day).padStart(8, "0")}-a729-83a2-8aaa-${String(n).padStart(12, "0")}`;
    const messageId = (day: number, n: number) =>
      `wamid.HBgMOTcxNTAwMDAwMDAxFQIAEhggQzU${day}x${n}`;
    for (let day = 0; day < DAYS; day++) {
      const writes = client.pipeline();
      const ttlMs = (DAYS - day) * DAY_S * 1000;
      for (let n = 0; n < PER_DAY; n++) {
        const ref = `DRB-${(day * PER_DAY + n).toString(36).toUpperCase().padStart(5, "2")}`;
        const copy = lead.replace(/"id":"[^"]+"/, `"id":"${id(day, n)}"`);
        writes.set(`darb:ledger:lead:${id(day, n)}`, copy, "PX", ttlMs);
        writes.set(`darb:ledger:ref:${ref}`, id(day, n), "PX", ttlMs);
      }
      await writes.exec();
    }
    const leadsAlone = (await usedMemory()) - before;
    for (let day = 0; day < DAYS; day++) {
      const writes = client.pipeline();
      const ttlMs = (DAYS - day) * DAY_S * 1000;
      for (let n = 0; n < PER_DAY; n++) {
        writes.set(`darb:ledger:chat:${messageId(day, n)}`, chat, "PX", ttlMs);
        if (day >= DAYS - 7) {
          writes.set(`darb:ledger:claim:${messageId(day, n)}`, "1", "PX", 7 * DAY_S * 1000);
        }
      }
      await writes.exec();
    }
    const ninetyDays = (await usedMemory()) - before;
    const maxmemory = composeMaxmemory();
    const kb = (bytes: number) => `${Math.round(bytes)} B`;
    console.log(
      [
        `${LEADS} leads and ${CHATS} chats through the site: used_memory +${kb(used)}`,
        `  a lead's copy ${kb(kept.lead.each)} + its reference ${kb(kept.ref.each)}, a chat ${kb(kept.chat.each)} + its claim ${kb(kept.claim.each)} (MEMORY USAGE)`,
        `  the limits' keys: ${kb(shortLived / LEADS)} a lead, gone within the hour; a visit's: ${kb(visit)} (used_memory)`,
        `${DAYS} days at ${PER_DAY} leads a day: ${(leadsAlone / 2 ** 20).toFixed(1)} MB, ${kb(leadsAlone / (DAYS * PER_DAY))} a lead`,
        `  with a chat message each: ${(ninetyDays / 2 ** 20).toFixed(1)} MB, ${kb(ninetyDays / (DAYS * PER_DAY))} a lead with its chat, ${kb((ninetyDays - leadsAlone) / (DAYS * PER_DAY))} a message; maxmemory ${(maxmemory / 2 ** 20).toFixed(0)} MB`,
      ].join("\n"),
    );
    expect(ninetyDays).toBeLessThanOrEqual(maxmemory / 2);
  });
});
