// deploy/README.md's Redis backup and restore, replayed against Debian's redis-server 7 with
// deploy/compose.yaml's flags: Redis 7 writes its append-only file as a directory
// (appendonlydir/: a base, increments and the manifest naming them), so the backup copies that
// directory with rewrites held off, and a restore puts it back before Redis starts.
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { freePort, ROOT, sleep } from "../support/child-server";
import { systemTool, trackGroup } from "../support/system-tools";

const DAY_MS = 86_400_000;
const work = mkdtempSync(join(tmpdir(), "darb-redis-backup-"));
let running: ChildProcess | undefined;

afterAll(() => {
  running?.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

/** compose.yaml's redis-server flags, its /data volume here. */
function composeFlags(): string[] {
  const compose = parse(readFileSync(join(ROOT, "deploy", "compose.yaml"), "utf8"), {
    merge: true,
  }) as { services: { redis: { command: string[] } } };
  const [binary, ...flags] = compose.services.redis.command;
  expect(binary).toBe("redis-server");
  return flags;
}

async function startRedis(port: number, dir: string): Promise<Redis> {
  const child = spawn(
    systemTool("redis-server"),
    [...composeFlags(), "--port", String(port), "--bind", "127.0.0.1", "--dir", dir],
    { stdio: "ignore", detached: true },
  );
  trackGroup(child);
  running = child;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new Redis({
      port,
      host: "127.0.0.1",
      lazyConnect: true,
      retryStrategy: () => null,
    });
    client.on("error", () => {});
    try {
      await client.connect();
      // While it loads the append-only file, Redis answers LOADING.
      if ((await client.ping()) === "PONG") return client;
    } catch {
      client.disconnect();
      if (Date.now() > deadline) throw new Error("redis-server did not answer in 10 s");
      await sleep(50);
    }
  }
}

async function stopRedis(client: Redis) {
  const child = running;
  const exited = new Promise((resolve) => child?.once("exit", resolve));
  // What `docker compose stop redis` sends: SIGTERM, Redis's own clean shutdown.
  child?.kill("SIGTERM");
  client.disconnect();
  await exited;
}

const info = async (client: Redis, field: string) =>
  new RegExp(`^${field}:(.*)\\r?$`, "m").exec(await client.info("persistence"))?.[1];

describe("Redis's backup and restore, as deploy/README.md says", { timeout: 60_000 }, () => {
  it("copies appendonlydir with rewrites held off, and a restore brings those keys back", async () => {
    const data = join(work, "data");
    const backup = join(work, "backup");
    const port = await freePort();
    mkdirSync(data);
    let redis = await startRedis(port, data);

    // Some keys in the base (written by a rewrite), some in the increment after it: the shared
    // ledger's copies and a dedupe mark, as the site writes them.
    await redis.set(
      "darb:ledger:lead:before-rewrite",
      '{"id":"before-rewrite"}',
      "PX",
      90 * DAY_MS,
    );
    await redis.bgrewriteaof();
    while ((await info(redis, "aof_rewrite_in_progress")) !== "0") await sleep(50);
    await redis.set("darb:ledger:lead:after-rewrite", '{"id":"after-rewrite"}', "PX", 90 * DAY_MS);
    await redis.set("darb:{address}:lead:mark", "1", "PX", 30 * 60_000);

    // Redis 7 writes a directory: a backup of appendonly.aof* alone would copy nothing.
    expect(readdirSync(data)).toEqual(["appendonlydir"]);
    expect(readdirSync(join(data, "appendonlydir")).sort()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\.base\.(rdb|aof)$/),
        expect.stringMatching(/\.incr\.aof$/),
        "appendonly.aof.manifest",
      ]),
    );

    // The backup: rewrites off, none in progress, the directory copied, rewrites back on.
    const [, percentage] = (await redis.config("GET", "auto-aof-rewrite-percentage")) as string[];
    expect(percentage).toBe("100");
    await redis.config("SET", "auto-aof-rewrite-percentage", "0");
    while ((await info(redis, "aof_rewrite_in_progress")) !== "0") await sleep(50);
    cpSync(join(data, "appendonlydir"), join(backup, "appendonlydir"), { recursive: true });
    await redis.config("SET", "auto-aof-rewrite-percentage", percentage ?? "100");

    // After the copy: a lead the restore loses, a lead deleted that it brings back.
    await redis.set("darb:ledger:lead:after-backup", '{"id":"after-backup"}', "PX", 90 * DAY_MS);
    await redis.del("darb:ledger:lead:before-rewrite");
    await stopRedis(redis);

    // The restore: Redis stopped, its directory replaced by the copy, Redis started.
    rmSync(join(data, "appendonlydir"), { recursive: true });
    cpSync(join(backup, "appendonlydir"), join(data, "appendonlydir"), { recursive: true });
    redis = await startRedis(port, data);
    expect((await redis.keys("darb:*")).sort()).toEqual([
      "darb:ledger:lead:after-rewrite",
      "darb:ledger:lead:before-rewrite",
      "darb:{address}:lead:mark",
    ]);
    // Each key keeps its own expiry (an absolute time in the file): a ledger copy its 90 days.
    expect(await redis.pttl("darb:ledger:lead:before-rewrite")).toBeGreaterThan(89 * DAY_MS);
    expect(await redis.pttl("darb:{address}:lead:mark")).toBeLessThanOrEqual(30 * 60_000);
    await stopRedis(redis);
  });
});
