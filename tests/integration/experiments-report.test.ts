// `npm run experiments` from the build: the report a marketer runs beside the server,
// over a ledger the ledger's own code wrote, and over every replica's counts in Redis.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSink } from "~/analytics/sink.server";
import { startExposureCopy } from "~/leads/ledger/exposure-copy.server";
import { createLedger, type LeadRecord, type Ledger } from "~/leads/ledger/ledger.server";
import { openLedger } from "~/leads/ledger/open-ledger.server";
import {
  createSharedLedger,
  SHARED_URL,
  sharedLeadCall,
} from "~/leads/ledger/shared-ledger.server";
import { createRedisConnection } from "~/leads/redis-connection.server";
import { freshDataDir, ROOT, sleep, startChildServer } from "../support/child-server";
import { type RedisServer, startRedis } from "../support/redis-server";
import { IPHONE_SAFARI_18 } from "../support/user-agents";

const EXAMPLE = join(ROOT, "experiments.example.json");
const REPORT = join(ROOT, "server-build/experiments-report.js");
// Yesterday and today in Dubai, so the default retention keeps them.
const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Dubai" }).format(new Date());
const yesterday = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Dubai" }).format(
  new Date(Date.now() - 86_400_000),
);

function report(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [REPORT, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
    encoding: "utf8",
  });
}

let leadNumber = 0;
function lead(variant: string, overrides: Partial<LeadRecord> = {}): LeadRecord {
  leadNumber += 1;
  return {
    id: `lead-${leadNumber}`,
    at: Date.now() - 60_000,
    cta: "whatsapp",
    campaign: { source: "instagram" },
    clientId: `${leadNumber}.1764000000`,
    sessionId: "1764000000",
    status: "new",
    experiment: { id: "hero_headline", variant },
    ...overrides,
  };
}

/** Exposures on two days and leads for each variant, in `ledger`. */
function fill(ledger: Ledger, scale = 1) {
  for (const day of [yesterday, today]) {
    for (let i = 0; i < 60 * scale; i++) {
      const variant = i % 2 === 0 ? "control" : "cashback_first";
      ledger.recordExposure({ day, experiment: "hero_headline", variant });
    }
  }
  const leads = [
    ...Array.from({ length: 3 * scale }, () => lead("control")),
    ...Array.from({ length: 5 * scale }, () => lead("cashback_first")),
    lead("cashback_first", { status: "chat_started" }),
    // A share is not a lead.
    lead("control", { cta: "link" }),
  ];
  for (const one of leads) ledger.recordLead(one, []);
  return leads;
}

beforeAll(() => {
  if (!existsSync(REPORT)) throw new Error("No build: run `npm run build` first.");
});

describe("npm run experiments over this server's ledger", () => {
  const dir = freshDataDir();
  beforeAll(() => {
    const ledger = openLedger(dir, 90);
    fill(ledger);
    ledger.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { DATA_DIR: dir, EXPERIMENTS_FILE: EXAMPLE };

  it("prints both variants with their counts, and warns that it is too small to call", () => {
    const run = spawnSync("npm", ["run", "-s", "experiments"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.split("\n")[0]).toMatch(
      /^Visitors and leads from the first record to now \(.+\) Dubai time \(UTC\+4\), read from the ledger at \//,
    );
    expect(run.stdout).toContain("Experiment hero_headline (running), whole history");
    expect(run.stdout).toMatch(/^control\s+60\s+3\s+0\s+5\.0%\s+[\d.]+% – [\d.]+%$/m);
    expect(run.stdout).toMatch(
      /^cashback_first\s+60\s+6\s+1\s+10\.0%\s+[\d.]+% – [\d.]+%\s+\d+%\s+[\d,]+$/m,
    );
    expect(run.stdout).toContain("Warning: Too early to call: visitors on 2 days so far");
    expect(run.stdout).toContain("Warning: cashback_first: too small to call");
    expect(run.stdout).toContain("Warning: cashback_first: too few leads to call");
  });

  it("writes the same as CSV", () => {
    const run = report(["--csv", "--since", "7d"], env);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.split("\r\n");
    expect(lines[1]).toMatch(/^hero_headline,running,control,yes,60,3,0,3,5\.00%,/);
    expect(lines[2]).toMatch(/^hero_headline,running,cashback_first,no,60,6,1,6,10\.00%,/);
    expect(lines[3]).toBe("");
  });

  it("closes yesterday in Dubai: that day's visitors only", () => {
    const run = report(["--since", "yesterday", "--until", "yesterday"], env);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.split("\n")[0]).toContain(
      `from ${yesterday} 00:00 to ${yesterday} 24:00 Dubai time (UTC+4)`,
    );
    expect(run.stdout).toMatch(/^control\s+30\s/m);
    expect(run.stdout).toMatch(/^cashback_first\s+30\s/m);
    const refused = report(["--since", "today", "--until", "yesterday"], env);
    expect(refused.status).toBe(2);
    expect(refused.stderr.split("\n")[0]).toMatch(
      /^--until "yesterday" .* is not after --since "today"/,
    );
  }, 30_000);

  it("exits 2 with the usage on a bad argument, and on a bad experiments file in one line", () => {
    const bad = report(["--al"], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("usage: npm run experiments");
    const missing = report([], { ...env, EXPERIMENTS_FILE: join(dir, "none.json") });
    expect(missing.status).toBe(2);
    expect(missing.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(missing.stderr).toContain("EXPERIMENTS_FILE");
    // Two processes one after the other: a busy machine takes more than the default 5 s.
  }, 30_000);

  it("says so when no experiment is running", () => {
    const none = report([], { DATA_DIR: dir });
    expect(none.status).toBe(0);
    expect(none.stdout).toMatch(/^No experiment: EXPERIMENTS_FILE is not set/);
  });
});

describe("npm run experiments with replicas", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.close();
  });

  it("sums every replica's exposures and leads from Redis", async () => {
    const connection = createRedisConnection(redis.url, { log: () => {} });
    try {
      for (let tries = 0; !connection.usable(); tries++) {
        if (tries > 200) throw new Error("Redis never connected");
        await sleep(25);
      }
      const shared = createSharedLedger(connection, 90);
      for (const scale of [1, 2]) {
        const ledger = createLedger();
        const sink = createSink({
          destinations: [],
          ledger,
          shared: { ledger: shared, retentionDays: 90 },
          writeLine: () => {},
        });
        const copy = startExposureCopy({ ledger, record: (calls) => sink.recordCalls(calls) });
        // Leads reach Redis as the server copies them: through the sink's outbox.
        sink.recordCalls(fill(ledger, scale).map(sharedLeadCall));
        copy.copy();
        await sink.flush(5000);
        expect(ledger.pendingCalls("redis").filter((c) => c.url === SHARED_URL.exposures)).toEqual(
          [],
        );
        copy.stop();
        sink.close();
        ledger.close();
      }
    } finally {
      connection.close();
    }
    const run = report([], {
      REDIS_URL: redis.url,
      ANALYTICS_SALT: "experiments-report-test-salt",
      DATA_DIR: freshDataDir(),
      EXPERIMENTS_FILE: EXAMPLE,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.split("\n")[0]).toMatch(/, read from Redis \(every replica\)$/);
    // 60 + 120 visitors a variant; leads 3 + 6 and 6 + 11 (a chat each).
    expect(run.stdout).toMatch(/^control\s+180\s+9\s+0\s+5\.0%/m);
    expect(run.stdout).toMatch(/^cashback_first\s+180\s+17\s+2\s+9\.4%/m);
  }, 60_000);

  it("gets a running replica's visitors from Redis, the last ones copied at shutdown", async () => {
    await redis.command("FLUSHALL");
    const ownDir = freshDataDir();
    const server = await startChildServer({
      REDIS_URL: redis.url,
      EXPERIMENTS_FILE: EXAMPLE,
      DATA_DIR: ownDir,
    });
    try {
      for (let n = 1; n <= 6; n++) {
        const page = await fetch(`${server.origin}/`, {
          headers: { "user-agent": IPHONE_SAFARI_18, "x-forwarded-for": `198.51.100.${n}` },
        });
        expect(page.status).toBe(200);
        await page.text();
      }
      // Each view is counted in the replica's own ledger as its page goes out (a line each).
      const views = () =>
        (readFileSync(join(ownDir, "leads.jsonl"), "utf8").match(/"t":"exposure"/g) ?? []).length;
      for (let tries = 0; views() < 6; tries++) {
        if (tries > 200) throw new Error(`${views()} views counted of 6`);
        await sleep(25);
      }
      // Well within the 10 s between copies: what reaches Redis is shutdown's copy.
      process.kill(server.pid, "SIGTERM");
      expect((await server.exited).code).toBe(0);
    } finally {
      await server.kill();
    }
    const run = report(["--csv"], {
      REDIS_URL: redis.url,
      ANALYTICS_SALT: "experiments-report-test-salt",
      DATA_DIR: freshDataDir(),
      EXPERIMENTS_FILE: EXAMPLE,
    });
    expect(run.status, run.stderr).toBe(0);
    const visitors = run.stdout
      .split("\r\n")
      .slice(1, 3)
      .map((line) => Number(line.split(",")[4]));
    expect((visitors[0] ?? 0) + (visitors[1] ?? 0)).toBe(6);
  }, 60_000);
});
