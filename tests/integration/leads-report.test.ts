// `npm run leads` closing a day, from the build: a ledger written in the ledger's own line format
// with leads either side of Dubai's midnights, the server taking it as its own and recording a
// Click-to-WhatsApp chat through the real signed webhook, then the report for yesterday in Dubai:
// that day and no other, shares apart from the leads, and the ad's chat under its ad; from the
// ledger, and from Redis where replicas share it.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LeadRecord } from "~/leads/ledger/ledger.server";
import {
  type ChildServer,
  freshDataDir,
  ROOT,
  sleep,
  startChildServer,
} from "../support/child-server";
import { type RedisServer, startRedis } from "../support/redis-server";
import { APP_SECRET, delivery, postToWebhook, signed } from "../support/whatsapp-webhook";

const REPORT = join(ROOT, "server-build/leads-report.js");
const DAY = 86_400_000;
const HOUR = 3_600_000;
// Yesterday and today in Dubai (UTC+4 all year), from the real clock and not the code under test.
const today = Math.floor((Date.now() + 4 * HOUR) / DAY) * DAY - 4 * HOUR;
const yesterday = today - DAY;
const yesterdayName = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Dubai" }).format(
  yesterday,
);

const AD = {
  source_url: "https://fb.me/3cr4Wqqkq",
  source_id: "120226305854810726",
  source_type: "ad",
  body: "Learn to drive in Dubai with a coach in your pocket",
  headline: "Chat with us",
  media_type: "image",
  image_url: "https://scontent.xx.fbcdn.net/v/t45.1600-4/ad.jpg",
  ctwa_clid: "ARAkLkA8rmlFeiCktEJQ-QTwRiyYHAFDLMNDBH0CD3qpjd0HR4irJ6LEkR7JwFF4",
};

function lead(id: string, at: number, more: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id,
    at,
    cta: "whatsapp",
    language: "en",
    campaign: { utm_source: "instagram", utm_medium: "paid", utm_campaign: "Eid" },
    clientId: `${id.length}.1764000000`,
    sessionId: "1764000000",
    status: "new",
    ...more,
  };
}

/**
 * Either side of each of yesterday's edges: 19:59:59 and 20:00:00 UTC are two Dubai days, so a
 * report that read UTC days (four hours late) would take today's first lead and drop
 * yesterday's first.
 */
const LEADS = [
  lead("day-before-last-second", yesterday - 1000, {
    campaign: { utm_source: "google", utm_campaign: "DayBefore" },
  }),
  lead("yesterday-first-second", yesterday, {
    campaign: { utm_source: "google", utm_campaign: "Search", utm_term: "driving app dubai" },
    plan: "plus",
    placement: "plan",
  }),
  lead("yesterday-noon", yesterday + 8 * HOUR, { cta: "email", language: "ar" }),
  lead("yesterday-last-second", today - 1000, { status: "chat_started" }),
  lead("share-1", yesterday + 9 * HOUR, { cta: "link" }),
  lead("share-2", yesterday + 10 * HOUR, { cta: "link" }),
  lead("today-first-second", today, { campaign: { utm_source: "tiktok", utm_campaign: "Today" } }),
];

/** The ledger's own lines, as ledger.server.ts writes a lead. */
function writeLedger(dir: string) {
  const lines = LEADS.map((one) => JSON.stringify({ t: "lead", lead: one }));
  writeFileSync(join(dir, "leads.jsonl"), `${lines.join("\n")}\n`);
}

function report(args: string[], env: Record<string, string>) {
  const run = spawnSync(process.execPath, [REPORT, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/** A message of a Click-to-WhatsApp ad, quoting no reference, sent yesterday at 18:00 Dubai. */
const adChat = (messageId: string) =>
  delivery(messageId, "Hi! Is the app free?", {
    timestamp: String(Math.floor((yesterday + 18 * HOUR) / 1000)),
    referral: AD,
  });
const strangerChat = (messageId: string) =>
  delivery(messageId, "hello", {
    timestamp: String(Math.floor((yesterday + 19 * HOUR) / 1000)),
  });

const servers: ChildServer[] = [];
let redis: RedisServer | undefined;
afterAll(async () => {
  for (const server of servers) await server.kill();
  await redis?.close();
});

async function start(env: Record<string, string>) {
  const server = await startChildServer({
    WHATSAPP_VERIFY_TOKEN: "verify-token-for-tests",
    WHATSAPP_APP_SECRET: APP_SECRET,
    ...env,
  });
  servers.push(server);
  return server;
}

async function post(server: ChildServer, body: string) {
  expect((await postToWebhook(server.origin, body, signed(body))).status).toBe(200);
}

describe("npm run leads --since yesterday --until yesterday", () => {
  it("closes yesterday in Dubai: its leads and no other day's, shares apart, the ad's chat under its ad", async () => {
    const dir = freshDataDir();
    writeLedger(dir);
    const server = await start({ DATA_DIR: dir });
    // The server takes every line written as the ledger writes it.
    expect(server.lines.filter((line) => line.type === "ledger_line_skipped")).toEqual([]);
    await post(server, adChat("wamid.ad-1"));
    await post(server, strangerChat("wamid.stranger-1"));
    // What the ledger keeps of the ad: its id, type and headline, never its text, media or URL.
    const ledger = readFileSync(join(dir, "leads.jsonl"), "utf8");
    expect(ledger).toContain(
      '"referral":{"sourceId":"120226305854810726","sourceType":"ad","headline":"Chat with us"}',
    );
    for (const dropped of ["fb.me", "fbcdn", "Learn to drive"])
      expect(ledger).not.toContain(dropped);

    const env = { DATA_DIR: dir };
    const text = report(["--since", "yesterday", "--until", "yesterday"], env);
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      `Leads from ${yesterdayName} 00:00 to ${yesterdayName} 24:00 Dubai time (UTC+4), read from the ledger at ${dir}`,
    );
    expect(text).not.toContain("DayBefore");
    expect(text).not.toContain("Today");
    expect(text).toMatch(
      new RegExp(
        `^lead\\s+${yesterdayName}\\s+google\\s+\\(none\\)\\s+Search\\s+\\(none\\)\\s+driving app dubai\\s+whatsapp\\s+plus\\s+plan\\s+en\\s+1\\s+0\\s+0%`,
        "m",
      ),
    );
    expect(text).toMatch(
      new RegExp(
        `^ad chat\\s+${yesterdayName}\\s+whatsapp ad\\s+\\(none\\)\\s+Chat with us\\s+120226305854810726\\s+\\(none\\)\\s+whatsapp\\s+\\(none\\)\\s+\\(none\\)\\s+\\(none\\)\\s+0\\s+1\\s`,
        "m",
      ),
    );
    expect(text).toContain(
      "Total: 3 leads, 1 chats (33%), 0 installed (AED 0); 1 chats from Click-to-WhatsApp ads without a site lead; 1 chats without a campaign; 2 shares (not leads)",
    );

    const csv = report(["--since", "yesterday", "--until", "yesterday", "--csv"], env)
      .split("\r\n")
      .filter(Boolean)
      .map((line) => line.split(","));
    const [header, ...rows] = csv;
    const column = (name: string) => header?.indexOf(name) ?? -1;
    expect(header?.slice(0, 2)).toEqual(["kind", "day"]);
    expect(rows.every((row) => row[column("day")] === yesterdayName)).toBe(true);
    const sum = (kind: string, name: string) =>
      rows
        .filter((row) => row[column("kind")] === kind)
        .reduce((total, row) => total + Number(row[column(name)]), 0);
    // A spreadsheet's sum of the leads column is the lead total: shares add none.
    expect(rows.reduce((total, row) => total + Number(row[column("leads")]), 0)).toBe(3);
    expect(sum("share", "shares")).toBe(2);
    expect(sum("share", "leads")).toBe(0);
    expect(sum("ad chat", "chats")).toBe(1);
    expect(rows.find((row) => row[column("kind")] === "ad chat")?.slice(2, 6)).toEqual([
      "whatsapp ad",
      "(none)",
      "Chat with us",
      "120226305854810726",
    ]);

    // Today is another day: its first second's lead, and none of yesterday's.
    const todayOnly = report(["--since", "today", "--csv"], env);
    expect(todayOnly).toContain(",tiktok,(none),Today,");
    expect(todayOnly.split("\r\n").filter(Boolean)).toHaveLength(2);
  }, 60_000);

  it("refuses a period that ends before it starts, or a day it cannot read, in one line and exit 2", () => {
    for (const [args, first] of [
      [
        ["--since", "today", "--until", "yesterday"],
        /^--until "yesterday" \(.+ 24:00\) is not after --since "today" \(.+ 00:00\), Dubai time/,
      ],
      [
        ["--until", "2026-02-30"],
        /^--until must be a Dubai day \(2026-11-28\), today, yesterday, 7d/,
      ],
    ] as const) {
      const run = spawnSync(process.execPath, [REPORT, ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: freshDataDir() },
        encoding: "utf8",
      });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.split("\n")[0]).toMatch(first);
      expect(run.stderr).toContain("usage: npm run leads");
    }
  });

  it("finds the ad's chat in Redis, where every replica's chats are", async () => {
    redis = await startRedis();
    const server = await start({ REDIS_URL: redis.url });
    await post(server, adChat("wamid.ad-redis"));
    for (
      let tries = 0;
      !(await redis.command("KEYS darb:ledger:chat:*")).includes("wamid");
      tries++
    ) {
      if (tries > 100) throw new Error("the chat never reached Redis");
      await sleep(100);
    }
    const text = report(["--since", "yesterday", "--until", "yesterday"], {
      REDIS_URL: redis.url,
      ANALYTICS_SALT: "child-server-test-salt",
      DATA_DIR: freshDataDir(),
    });
    expect(text.split("\n")[0]).toMatch(/, read from Redis \(every replica\)$/);
    expect(text).toMatch(
      /^ad chat\s+\S+\s+whatsapp ad\s+\(none\)\s+Chat with us\s+120226305854810726\s/m,
    );
  }, 60_000);
});
