// nginx and the replicas behind it agree on their connections: deploy/nginx/darb.conf run by
// Debian's nginx in front of two real replicas sharing Redis, as replicas.test.ts starts them.
// nginx keeps idle connections to a replica open for less time than Node does (keepalive_timeout
// in the upstream block, against Node's server keepAliveTimeout), so a replica never closes a
// connection nginx is about to send on; and a GET whose replica dies before answering is asked
// of the other one. Who closed each connection is read from the kernel (/proc/net/tcp): the side
// that closes first keeps the TIME_WAIT.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChildServer,
  childServerEnv,
  freePort,
  freshDataDir,
  holdLoadLock,
  ROOT,
  SERVER,
  sleep,
  startChildServer,
} from "../support/child-server";
import { type NginxProxy, REPLICA_SETTINGS, startNginx } from "../support/nginx-proxy";
import { type RawAnswer, rawRequest } from "../support/raw-http";
import { type RedisServer, startRedis } from "../support/redis-server";
import { IPHONE_SAFARI_18 } from "../support/user-agents";

/** Node's own server.keepAliveTimeout, which server/site.ts leaves as it is. */
const NODE_KEEP_ALIVE_MS = 5000;

let redis: RedisServer;
let replicas: ChildServer[] = [];
let proxy: NginxProxy;
let release = () => {};

beforeAll(async () => {
  release = await holdLoadLock();
  redis = await startRedis();
  replicas = await Promise.all(
    [1, 2].map(() => startChildServer({ ...REPLICA_SETTINGS, REDIS_URL: redis.url })),
  );
  proxy = await startNginx(replicas.map((replica) => replica.origin));
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all(replicas.map((replica) => replica.kill()));
  await redis?.close();
  release();
});

/** One visitor's request through nginx, on a connection of its own, from `address`. */
const visit = (address: string, path: string) =>
  rawRequest(proxy.origin, path, {
    localAddress: address,
    headers: { "user-agent": IPHONE_SAFARI_18 },
    agent: false,
    timeoutMs: 30_000,
  });

type Socket = { local: number; remote: number; state: "established" | "time-wait" | "other" };

/** IPv4 TCP sockets on loopback, as the kernel lists them. */
function sockets(): Socket[] {
  const port = (field: string) => Number.parseInt(field.split(":")[1] ?? "", 16);
  return readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length > 3)
    .map(([, local = "", remote = "", state]) => ({
      local: port(local),
      remote: port(remote),
      state: state === "01" ? "established" : state === "06" ? "time-wait" : "other",
    }));
}

const replicaPorts = () => replicas.map((replica) => Number(new URL(replica.origin).port));

/** The far ends of the connections open to a replica right now: nginx's, after a burst. */
const peersOfReplicas = () =>
  sockets()
    .filter((s) => s.state === "established" && replicaPorts().includes(s.local))
    .map((s) => s.remote);

describe("nginx and the replicas on their connections", { timeout: 120_000 }, () => {
  it("keeps an idle connection to a replica for less than Node does: a replica never closes one, and requests after 5.2 s gaps never get a 502", async () => {
    // Connections open before this test (the replicas' start-up checks) are not nginx's.
    const before = new Set(peersOfReplicas());
    const nginxPeers = new Set<number>();
    const answers: RawAnswer[] = [];
    for (let round = 0; round < 4; round++) {
      // Several at once, so that nginx holds several connections to each replica.
      const burst = Array.from({ length: 12 }, (_, n) =>
        visit(`127.0.9.${round * 12 + n + 1}`, n % 2 ? "/" : "/share"),
      );
      // While they are open: nginx's side of each connection to a replica.
      await sleep(5);
      for (const peer of peersOfReplicas()) if (!before.has(peer)) nginxPeers.add(peer);
      answers.push(...(await Promise.all(burst)));
      for (const peer of peersOfReplicas()) if (!before.has(peer)) nginxPeers.add(peer);
      // Just past Node's keep-alive: a connection nginx still held would be closed under it.
      await sleep(NODE_KEEP_ALIVE_MS + 200);
    }
    expect(answers.map((answer) => answer.status)).toEqual(Array(answers.length).fill(200));
    expect(nginxPeers.size).toBeGreaterThanOrEqual(2);
    // Each of nginx's connections to a replica that has closed was closed by nginx: the
    // replica's side of it never holds the TIME_WAIT.
    const closedByReplica = sockets().filter(
      (s) =>
        s.state === "time-wait" && replicaPorts().includes(s.local) && nginxPeers.has(s.remote),
    );
    const closedByNginx = sockets().filter(
      (s) =>
        s.state === "time-wait" && nginxPeers.has(s.local) && replicaPorts().includes(s.remote),
    );
    console.log(
      `${nginxPeers.size} upstream connections; closed by nginx: ${closedByNginx.length}, by a replica: ${closedByReplica.length}`,
    );
    expect(closedByReplica).toEqual([]);
    expect(closedByNginx.length).toBeGreaterThan(0);
    expect(proxy.errorLog()).not.toMatch(/prematurely closed|reset by peer|while reading response/);
    // What makes it so: nginx lets an idle connection go before Node would.
    const conf = readFileSync(
      new URL("../../deploy/nginx/darb.conf", import.meta.url),
      "utf8",
    ).replace(/#.*$/gm, "");
    const upstream = /upstream darb_site \{([^}]*)\}/.exec(conf)?.[1] ?? "";
    const idle = /^\s*keepalive_timeout (\d+)s;/m.exec(upstream)?.[1];
    expect(Number(idle) * 1000, "keepalive_timeout in the upstream block").toBeLessThan(
      NODE_KEEP_ALIVE_MS,
    );
  });

  it("answers every /thank-you GET while a replica is killed mid-stream: no 502, each hand-off given", async () => {
    const answers: Array<{ n: number; status: number; handOff: boolean }> = [];
    const total = 600;
    const killAt = 200;
    let next = 0;
    let killed = false;
    // Four visitors at a time, each new (its own address), as a campaign's taps arrive.
    const worker = async () => {
      for (let n = next++; n < total; n = next++) {
        if (n >= killAt && !killed) {
          killed = true;
          // SIGKILL: no drain, requests in flight on it are cut off.
          process.kill(replicas[1]?.pid ?? 0, "SIGKILL");
        }
        const answer = await visit(
          `127.0.${10 + Math.floor(n / 250)}.${(n % 250) + 1}`,
          `/thank-you?cta=whatsapp&source=kill-${n}`,
        );
        answers.push({ n, status: answer.status, handOff: answer.body.includes("https://wa.me/") });
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(killed).toBe(true);
    expect(replicas[1]?.alive()).toBe(false);
    const statuses = new Map<number, number>();
    for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    console.log(`/thank-you through a replica's death: ${JSON.stringify([...statuses])}`);
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(answers.every((answer) => answer.handOff)).toBe(true);
    expect(answers).toHaveLength(total);
    // nginx saw the replica go (refused or cut off) and asked the other one.
    expect(proxy.errorLog()).toMatch(/connect\(\) failed|prematurely closed|reset by peer/);
  });
});

/** A replica as compose runs one: its own port (the container's address) and data volume. */
type Replica = { port: number; dataDir: string; child: ChildProcess; exit: Promise<number | null> };

async function startReplica(port: number, dataDir: string): Promise<Replica> {
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: childServerEnv(port, {
      ...REPLICA_SETTINGS,
      ANALYTICS_SALT: "rolling-deploy-test-salt",
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
    }),
    stdio: "ignore",
  });
  const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`replica on ${port} exited at start`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`replica on ${port} did not answer in 20 s`);
    await sleep(50);
  }
  return { port, dataDir, child, exit };
}

describe("a rolling deploy, one replica at a time, as deploy/README.md does it", {
  timeout: 120_000,
}, () => {
  let running: Replica[] = [];
  let front: NginxProxy;

  afterAll(async () => {
    await front?.stop();
    for (const replica of running) replica.child.kill("SIGKILL");
  });

  it("answers every /thank-you GET while each replica is stopped and started again, and keeps every lead", async () => {
    const ports = [await freePort(), await freePort()];
    running = await Promise.all(ports.map((port) => startReplica(port, freshDataDir())));
    front = await startNginx(ports.map((port) => `http://127.0.0.1:${port}`));
    const answers: Array<{ n: number; status: number; handOff: boolean }> = [];
    let rolling = true;
    let next = 0;
    const worker = async () => {
      while (rolling) {
        const n = next++;
        const answer = await rawRequest(front.origin, `/thank-you?cta=whatsapp&source=roll-${n}`, {
          localAddress: `127.0.${20 + Math.floor(n / 250)}.${(n % 250) + 1}`,
          headers: { "user-agent": IPHONE_SAFARI_18 },
          agent: false,
          timeoutMs: 30_000,
        });
        answers.push({ n, status: answer.status, handOff: answer.body.includes("https://wa.me/") });
      }
    };
    const stream = Promise.all([worker(), worker(), worker(), worker()]);
    const exits: Array<number | null> = [];
    try {
      await sleep(500);
      for (const index of [0, 1]) {
        const old = running[index] as Replica;
        // `docker compose up -d --no-deps --wait site-N`: SIGTERM to the old container, which
        // finishes what it answers and exits; the new one on its volume, until healthy.
        old.child.kill("SIGTERM");
        exits.push(await old.exit);
        running[index] = await startReplica(old.port, old.dataDir);
        // `docker compose exec nginx nginx -s reload`: the new container's address.
        front.reload();
        await sleep(500);
      }
    } finally {
      rolling = false;
      await stream;
    }
    const statuses = new Map<number, number>();
    for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    console.log(`/thank-you through a rolling deploy: ${JSON.stringify([...statuses])}`);
    // Each old replica stopped cleanly: its requests answered, its ledger closed.
    expect(exits).toEqual([0, 0]);
    expect(answers.length).toBeGreaterThan(50);
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(answers.every((answer) => answer.handOff)).toBe(true);
    // Every lead answered is in a replica's ledger, on the volume the new container reopened.
    const ledgers = running
      .map((replica) => readFileSync(join(replica.dataDir, "leads.jsonl"), "utf8"))
      .join("\n");
    const missing = answers.filter(({ n }) => !ledgers.includes(`"source":"roll-${n}"`));
    expect(missing).toEqual([]);
  });
});
