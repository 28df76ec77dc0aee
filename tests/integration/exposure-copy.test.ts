// Replicas' experiment exposures in Redis: each replica's ledger copies its totals
// through its outbox, in batches, against Debian's redis-server; the copy is idempotent (sent
// twice, out of order, or again after a restart, it counts nothing twice) and survives an outage.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSink, type Sink } from "~/analytics/sink.server";
import { startExposureCopy } from "~/leads/ledger/exposure-copy.server";
import { createLedger, type Ledger } from "~/leads/ledger/ledger.server";
import {
  createSharedLedger,
  SHARED_URL,
  type SharedLedger,
  sharedExposureCall,
} from "~/leads/ledger/shared-ledger.server";
import { createRedisConnection, type RedisConnection } from "~/leads/redis-connection.server";
import { sleep } from "../support/child-server";
import { type RedisServer, startRedis } from "../support/redis-server";

const DAY = "2026-11-25";
/** Two days later: well within the retention of the day's keys. */
const NOW = Date.parse("2026-11-27T12:00:00+04:00");

let redis: RedisServer;
const connections: RedisConnection[] = [];
const closers: Array<() => void> = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.close();
});
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  for (const connection of connections.splice(0)) connection.close();
  await redis.command("FLUSHALL");
});

async function connect(): Promise<RedisConnection> {
  const connection = createRedisConnection(redis.url, { log: () => {}, probeIntervalMs: 100 });
  connections.push(connection);
  await until(() => connection.usable(), "Redis connected");
  return connection;
}

/** One replica: its ledger, its sink with the outbox for Redis, and the copier. */
async function replica(ledger: Ledger = createLedger({ now: () => NOW })) {
  const shared = createSharedLedger(await connect(), 90, () => NOW);
  const sink: Sink = createSink({
    destinations: [],
    ledger,
    shared: { ledger: shared, retentionDays: 90 },
    writeLine: () => {},
    now: () => NOW,
  });
  const copy = startExposureCopy({
    ledger,
    record: (calls) => sink.recordCalls(calls),
    everyMs: 3_600_000,
    now: () => NOW,
  });
  closers.push(() => {
    copy.stop();
    sink.close();
  });
  return { ledger, shared, sink, copy };
}

async function until(condition: () => boolean | Promise<boolean>, what: string) {
  for (let tries = 0; tries < 200; tries++) {
    if (await condition()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const owed = (ledger: Ledger) =>
  ledger.pendingCalls("redis").filter((call) => call.url === SHARED_URL.exposures);

function expose(ledger: Ledger, variant: string, times: number, day = DAY) {
  for (let i = 0; i < times; i++) ledger.recordExposure({ day, experiment: "hero", variant });
}

const summed = async (shared: SharedLedger) =>
  (await shared.exposures())
    .map(({ day, experiment, variant, count }) => `${day} ${experiment} ${variant} ${count}`)
    .sort();

describe("exposure counts copied to Redis", () => {
  it("sum every replica's totals, copied in one call per batch", async () => {
    const one = await replica();
    const two = await replica();
    expose(one.ledger, "control", 700);
    expose(one.ledger, "cashback", 300);
    expose(two.ledger, "control", 5);
    expose(two.ledger, "cashback", 8, "2026-11-26");
    one.copy.copy();
    two.copy.copy();
    // A thousand exposures, one call (still owed: Redis has not answered yet).
    expect(owed(one.ledger)).toHaveLength(1);
    expect(owed(one.ledger)[0]?.events).toBe(2);
    await until(() => owed(one.ledger).length + owed(two.ledger).length === 0, "the copies");
    expect(await summed(one.shared)).toEqual([
      "2026-11-25 hero cashback 300",
      "2026-11-25 hero control 705",
      "2026-11-26 hero cashback 8",
    ]);
    // The hash holds one total per replica, with an expiry: never a visitor.
    const fields = await redis.command(`HLEN darb:ledger:exposures:${DAY}`);
    expect(fields).toBe(":3\r\n");
    const ttl = Number((await redis.command(`PTTL darb:ledger:exposures:${DAY}`)).slice(1));
    expect(ttl).toBeGreaterThan(80 * 86_400_000);

    // Later batches carry only what changed, and raise the totals.
    expose(two.ledger, "control", 2);
    two.copy.copy();
    const [call] = owed(two.ledger);
    expect(JSON.parse(call?.body ?? "{}").exposures).toEqual([
      { day: DAY, experiment: "hero", variant: "control", count: 7 },
    ]);
    await until(() => owed(two.ledger).length === 0, "the second copy");
    expect(await summed(two.shared)).toContain("2026-11-25 hero control 707");
    // Nothing changed: no call at all.
    two.copy.copy();
    expect(owed(two.ledger)).toHaveLength(0);
  });

  it("count nothing twice: a copy sent again, an older one after a newer, a restart's", async () => {
    const one = await replica();
    expose(one.ledger, "control", 10);
    const older = sharedExposureCall(one.ledger.replicaId(), one.ledger.exposures(), NOW);
    expose(one.ledger, "control", 5);
    const newer = sharedExposureCall(one.ledger.replicaId(), one.ledger.exposures(), NOW);
    const url = new URL(SHARED_URL.exposures);
    const post = (body: string) => one.shared.post(url, body, { timeoutMs: 2000 });
    expect(await post(newer.body)).toBe(204);
    expect(await post(newer.body)).toBe(204);
    expect(await post(older.body)).toBe(204);
    expect(await summed(one.shared)).toEqual(["2026-11-25 hero control 15"]);

    // The same ledger after a restart: a new copier copies every total again.
    closers.splice(0).forEach((close) => {
      close();
    });
    const again = await replica(one.ledger);
    again.copy.copy();
    expect(owed(again.ledger)).toHaveLength(1);
    await until(() => owed(again.ledger).length === 0, "the copy after a restart");
    expect(await summed(again.shared)).toEqual(["2026-11-25 hero control 15"]);
  });

  it("wait in the ledger while Redis is down, one copy owed at most, and arrive after", async () => {
    const one = await replica();
    await redis.stop();
    await until(() => !connections[0]?.usable(), "Redis down");
    expose(one.ledger, "control", 3);
    one.copy.copy();
    expose(one.ledger, "cashback", 4);
    one.copy.copy();
    one.copy.copy();
    expect(owed(one.ledger)).toHaveLength(1);
    await redis.restart();
    await until(() => connections[0]?.usable() ?? false, "Redis back");
    await one.sink.flush(5000);
    await until(() => owed(one.ledger).length === 0, "the owed copy");
    // The changes made meanwhile go with the next batch.
    one.copy.copy();
    await until(() => owed(one.ledger).length === 0, "the next copy");
    expect(await summed(one.shared)).toEqual([
      "2026-11-25 hero cashback 4",
      "2026-11-25 hero control 3",
    ]);
  });
});
