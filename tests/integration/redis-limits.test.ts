// The limits on a real Redis (Debian's redis-server, a child of this test): the same numbers as
// in memory, nothing stored about a visitor but keyed hashes and counters, every key expiring,
// and a Redis that hangs, is gone at start or comes back handled without a request waiting.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BATCHES_PER_ADDRESS,
  BATCHES_PER_VISITOR,
  DEDUPE_WINDOW_MS,
  EXPOSURE_WINDOW_MS,
  EXPOSURES_PER_ADDRESS,
  LEADS_PER_ADDRESS,
  SESSION_TIMEOUT_MS,
  VIEW_WINDOW_MS,
  VIEWS_PER_ADDRESS,
} from "~/leads/limits.server";
import {
  COMMAND_TIMEOUT_MS,
  createRedisConnection,
  FAILURES_TO_TRIP,
  type RedisConnection,
} from "~/leads/redis-connection.server";
import { createRedisLimits } from "~/leads/redis-limits.server";
import { createSharedLimits, type SharedLimits } from "~/leads/shared-limits.server";
import { visitorFor } from "~/leads/visitor.server";
import { freePort, sleep, withLoadLock } from "../support/child-server";
import { type RedisServer, startRedis } from "../support/redis-server";
import { IPHONE_SAFARI_18 } from "../support/user-agents";

const SALT = "redis-limits-test-salt";
const visitor = (address: string, userAgent = IPHONE_SAFARI_18) =>
  visitorFor({ address, userAgent }, { salt: SALT });

type Line = { type: string; store?: string; state?: string; reason?: string };

/** A replica's limits on `url`, with its log lines kept. */
function replicaLimits(url: string) {
  const lines: Line[] = [];
  const connection = createRedisConnection(url, {
    log: (line) => lines.push(JSON.parse(line)),
  });
  const limits = createSharedLimits(createRedisLimits(connection, SALT));
  const states = () =>
    lines.filter((line) => line.type === "shared_state").map((line) => line.state);
  return { connection, limits, lines, states };
}

async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await sleep(20);
  }
}

let redis: RedisServer;
let inspect: Redis;
const opened: RedisConnection[] = [];

beforeAll(async () => {
  redis = await startRedis();
  inspect = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await inspect.connect();
}, 30_000);

afterAll(async () => {
  for (const connection of opened) connection.close();
  inspect?.disconnect();
  await redis?.close();
});

function open(url = redis.url) {
  const replica = replicaLimits(url);
  opened.push(replica.connection);
  return replica;
}

/**
 * How many of an address's burst were counted: the bucket's capacity, and what it refilled while
 * the burst ran (on a busy machine the calls take long enough to earn a few more), and one for
 * the clocks' granularity, as the batches' test allows; never more.
 */
function withinBound(
  verdicts: string[],
  bucket: { capacity: number; refillPerSecond: number },
  started: number,
): number {
  const seconds = (performance.now() - started) / 1000;
  const counted = verdicts.filter((verdict) => verdict === "counted").length;
  expect(counted).toBeGreaterThanOrEqual(bucket.capacity);
  expect(counted).toBeLessThanOrEqual(
    bucket.capacity + Math.ceil(bucket.refillPerSecond * seconds) + 1,
  );
  return counted;
}

describe("two replicas' limits on one Redis", () => {
  let a: SharedLimits;
  let b: SharedLimits;

  beforeAll(async () => {
    const first = open();
    const second = open();
    await until(() => first.connection.usable() && second.connection.usable());
    a = first.limits;
    b = second.limits;
  });

  it("count a visitor's lead once, whichever replica sees it, and another visitor's apart", async () => {
    const phone = visitor("198.51.100.1");
    expect(await a.lead(phone, "whatsapp|instagram|")).toBe("counted");
    expect(await b.lead(phone, "whatsapp|instagram|")).toBe("repeat");
    expect(await a.lead(phone, "whatsapp|instagram|")).toBe("repeat");
    // The same phone model on the next address is someone else.
    expect(await b.lead(visitor("198.51.100.2"), "whatsapp|instagram|")).toBe("counted");
    expect(a.stats()).toMatchObject({ leads_repeated: 1, unconfirmed_dedupe: 0 });
    expect(b.stats()).toMatchObject({ leads_repeated: 1, unconfirmed_dedupe: 0 });
  });

  it("hold one address to its 60 leads across both, as memory holds one process", async () => {
    const verdicts: string[] = [];
    for (let n = 0; n < LEADS_PER_ADDRESS.capacity + 20; n++) {
      const replica = n % 2 === 0 ? a : b;
      verdicts.push(
        await replica.lead(visitor("198.51.100.3", `${IPHONE_SAFARI_18} ${n}`), "demo||"),
      );
    }
    const counted = verdicts.filter((verdict) => verdict === "counted").length;
    // The burst, and at most one earned back at one a minute.
    expect(counted).toBeGreaterThanOrEqual(LEADS_PER_ADDRESS.capacity);
    expect(counted).toBeLessThanOrEqual(LEADS_PER_ADDRESS.capacity + 1);
  });

  it("hold one visitor to 60 batches and one address to 300, across both", async () => {
    const one = visitor("198.51.100.4");
    let visitorAllowed = 0;
    for (let n = 0; n < BATCHES_PER_VISITOR.capacity + 20; n++)
      if (await (n % 2 ? a : b).batch(one)) visitorAllowed++;
    expect(visitorAllowed).toBeGreaterThanOrEqual(BATCHES_PER_VISITOR.capacity);
    expect(visitorAllowed).toBeLessThan(BATCHES_PER_VISITOR.capacity + 5);

    const started = Date.now();
    let addressAllowed = 0;
    for (let n = 0; n < BATCHES_PER_ADDRESS.capacity + 60; n++)
      if (await (n % 2 ? a : b).batch(visitor("198.51.100.5", `${IPHONE_SAFARI_18} ${n}`)))
        addressAllowed++;
    const earned = ((Date.now() - started) / 1000) * BATCHES_PER_ADDRESS.refillPerSecond;
    expect(addressAllowed).toBeGreaterThanOrEqual(BATCHES_PER_ADDRESS.capacity);
    expect(addressAllowed).toBeLessThanOrEqual(
      BATCHES_PER_ADDRESS.capacity + Math.ceil(earned) + 1,
    );
  });

  it("keep a visit's session without JavaScript across replicas, a new campaign starting a new one", async () => {
    const phone = visitor("198.51.100.60");
    const instagram = { source: "instagram", utm_campaign: "ramadan-offer" };
    const first = await a.session(phone, instagram);
    expect(first).toMatch(/^\d{10}$/);
    // The same campaign on the other replica, in another letter case, or untagged: the same.
    expect(await b.session(phone, { ...instagram, source: "Instagram" })).toBe(first);
    expect(await a.session(phone, {})).toBe(first);
    // Another campaign the same day: a session of its own, later than the first.
    const tiktok = await b.session(phone, { source: "tiktok" });
    expect(Number(tiktok)).toBeGreaterThan(Number(first));
    expect(await a.session(phone, { source: "tiktok" })).toBe(tiktok);
    // Another visitor's session is theirs.
    expect(await a.session(visitor("198.51.100.61"), instagram)).not.toBe(tiktok);
    // No campaign word in Redis, and the session expires 30 minutes after its last event.
    const keys = await inspect.keys("darb:*:session:*");
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const key of keys) {
      const stored = JSON.stringify(await inspect.hgetall(key));
      expect(stored).not.toMatch(/instagram|tiktok|ramadan/i);
      expect(await inspect.pttl(key)).toBeLessThanOrEqual(SESSION_TIMEOUT_MS);
      expect(await inspect.pttl(key)).toBeGreaterThan(SESSION_TIMEOUT_MS - 60_000);
    }
  });

  it("store under darb: only keyed hashes and counters, and every key expires", async () => {
    const address = "198.51.100.77";
    const source = "secret-campaign-word";
    await a.lead(visitor(address), `email|${source}|pro`);
    await b.batch(visitor(address));
    const keys = await inspect.keys("*");
    expect(keys.length).toBeGreaterThan(0);
    const dump: string[] = [];
    for (const key of keys) {
      expect(key).toMatch(
        /^darb:\{[\w-]{22}\}:(lead:[\w-]{22}|leads|batches|visitor:[\w-]{22}|session:[\w-]{22})$|^darb:\{probe\}$/,
      );
      const ttl = await inspect.pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      // A bucket lives until it would be full again: an hour for leads, a minute for batches.
      expect(ttl, key).toBeLessThanOrEqual(Math.max(DEDUPE_WINDOW_MS, 3_601_000));
      const type = await inspect.type(key);
      dump.push(
        key,
        type === "hash"
          ? JSON.stringify(await inspect.hgetall(key))
          : String(await inspect.get(key)),
      );
    }
    const stored = dump.join("\n");
    for (const secret of [address, source, "iPhone", visitor(address).clientId])
      expect(stored).not.toContain(secret);
    // A bucket is its tokens and when they were counted; nothing else.
    const bucket = keys.find((key) => key.endsWith(":leads")) ?? "";
    expect(Object.keys(await inspect.hgetall(bucket)).sort()).toEqual(["at", "tokens"]);
  });

  // After the test above, which holds the other keys to their shorter lives.
  it("count a visitor's view of an experiment once a day, whichever replica sees it, within the address's bound", async () => {
    const phone = visitor("198.51.100.90");
    expect(await a.exposure(phone, "hero_headline")).toBe("counted");
    expect(await b.exposure(phone, "hero_headline")).toBe("repeat");
    expect(await b.exposure(phone, "other_test")).toBe("counted");
    const mark = (await inspect.keys("*:exposure:*"))[0] ?? "";
    // A mark lives as long as the visitor's daily id can: 26 hours, never longer.
    const ttl = await inspect.pttl(mark);
    expect(ttl).toBeGreaterThan(25 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(EXPOSURE_WINDOW_MS);
    const verdicts: string[] = [];
    const started = performance.now();
    for (let n = 0; n < EXPOSURES_PER_ADDRESS.capacity + 10; n++) {
      const replica = n % 2 === 0 ? a : b;
      verdicts.push(
        await replica.exposure(visitor("198.51.100.91", `Agent/${n}`), "hero_headline"),
      );
    }
    const counted = withinBound(verdicts, EXPOSURES_PER_ADDRESS, started);
    expect(a.stats().exposures_capped + b.stats().exposures_capped).toBe(verdicts.length - counted);
  });

  it("count a no-JS view once per visitor, session and page, whichever replica sees it, within the address's bound", async () => {
    const phone = visitor("198.51.100.92");
    expect(await a.view(phone, "1764000000|/")).toBe("counted");
    expect(await b.view(phone, "1764000000|/")).toBe("repeat");
    expect(await b.view(phone, "1764000000|/share")).toBe("counted");
    const marks = await inspect.keys("*:view:*");
    expect(marks).toHaveLength(2);
    // Hashed like every key: no session, page or visitor in it.
    for (const key of marks) expect(key).not.toMatch(/1764000000|share|198\.51/);
    expect(await inspect.pttl(marks[0] ?? "")).toBeLessThanOrEqual(VIEW_WINDOW_MS);
    const verdicts: string[] = [];
    const started = performance.now();
    for (let n = 0; n < VIEWS_PER_ADDRESS.capacity + 10; n++) {
      const replica = n % 2 === 0 ? a : b;
      verdicts.push(await replica.view(visitor("198.51.100.93", `Agent/${n}`), "1|/"));
    }
    const counted = withinBound(verdicts, VIEWS_PER_ADDRESS, started);
    expect(a.stats().views_capped + b.stats().views_capped).toBe(verdicts.length - counted);
  });
});

describe("Redis in trouble", () => {
  it("hung (SIGSTOP): three leads wait the command timeout, later ones not at all; one line down, one up", async () => {
    const replica = open();
    await until(() => replica.connection.usable());
    // Timings are measured: no load test runs meanwhile.
    await withLoadLock(async () => {
      redis.hang();
      try {
        const times: number[] = [];
        const verdicts: string[] = [];
        for (let n = 0; n < 6; n++) {
          const started = performance.now();
          verdicts.push(await replica.limits.lead(visitor(`198.51.100.${100 + n}`), "whatsapp||"));
          times.push(performance.now() - started);
        }
        console.log(
          `Redis hung: leads answered in ${times.map((ms) => ms.toFixed(1)).join(", ")} ms`,
        );
        expect(verdicts).toEqual(Array(6).fill("counted"));
        // Three in a row take Redis for down; each waited its 200 ms and not much longer (a busy
        // machine's timer may fire late), and the rest did not ask it at all.
        for (const ms of times.slice(0, FAILURES_TO_TRIP)) {
          expect(ms).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 5);
          expect(ms).toBeLessThan(COMMAND_TIMEOUT_MS + 300);
        }
        for (const ms of times.slice(FAILURES_TO_TRIP)) expect(ms).toBeLessThan(50);
        expect(replica.limits.store()).toBe("memory, redis down");
        expect(replica.limits.stats().unconfirmed_dedupe).toBe(6);
        // Still hung a few probes later: still one line.
        await sleep(1500);
        expect(replica.states()).toEqual(["up", "down"]);
      } finally {
        redis.resume();
      }
    });
    await until(() => replica.connection.usable(), 6000);
    expect(replica.states()).toEqual(["up", "down", "up"]);
    expect(await replica.limits.lead(visitor("198.51.100.120"), "whatsapp||")).toBe("counted");
    expect(replica.limits.stats().unconfirmed_dedupe).toBe(6);
    // The load lock may be another file's for minutes: the timings are taken only once it is ours.
  }, 180_000);

  it("absent at start: the replica counts in memory, says so once, and shares as soon as Redis comes", async () => {
    const port = await freePort();
    const replica = open(`redis://127.0.0.1:${port}`);
    await until(() => replica.states().length > 0);
    expect(replica.lines).toEqual([
      expect.objectContaining({ type: "shared_state", state: "down", fallback: "memory" }),
    ]);
    const started = performance.now();
    expect(await replica.limits.batch(visitor("198.51.100.130"))).toBe(true);
    expect(performance.now() - started).toBeLessThan(20);
    // Reconnect attempts back off; each fails, and none is a line of its own.
    await sleep(1000);
    expect(replica.states()).toEqual(["down"]);
    expect(replica.limits.store()).toBe("memory, redis down");

    const late = await startRedis({ port });
    try {
      // Reconnects back off to 2 s at most.
      await until(() => replica.connection.usable(), 4000);
      expect(replica.states()).toEqual(["down", "up"]);
      expect(replica.limits.store()).toBe("redis");
      expect(await replica.limits.lead(visitor("198.51.100.131"), "demo||")).toBe("counted");
      expect(await late.command("DBSIZE")).not.toBe(":0\r\n");
    } finally {
      await late.close();
    }
  });
});
