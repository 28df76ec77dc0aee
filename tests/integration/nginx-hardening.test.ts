// deploy/nginx against a measured attack: one address holding 1,100 slowloris sockets made real
// visitors' requests fail. Debian's nginx runs the deploy files (tests/support/nginx-proxy.ts) in
// front of two built replicas, of replicas that are down, and of one that never answers; every
// client is on loopback, each visitor an address of its own (Node's localAddress) on the same
// iPhone. Checked: real visitors get their pages during a bounded slowloris from another address,
// nginx's own answers (413, 429, 502, 504, 404) carry the app's security headers and a replica's
// carry them once, and /readyz and /metrics are not reachable through nginx.
import { readFileSync } from "node:fs";
import http from "node:http";
import net, { type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hardeningHeaders } from "../../server/security-headers";
import {
  type ChildServer,
  freePort,
  holdLoadLock,
  sleep,
  startChildServer,
} from "../support/child-server";
import { NGINX_CONF, type NginxProxy, REPLICA_SETTINGS, startNginx } from "../support/nginx-proxy";
import { type RawAnswer, rawRequest } from "../support/raw-http";
import { IPHONE_SAFARI_18 } from "../support/user-agents";

/** The numbers darb.conf sets, read from it: the test follows the file, whatever they become. */
const CONF = readFileSync(NGINX_CONF, "utf8");
function confNumber(pattern: RegExp): number {
  const value = Number(pattern.exec(CONF)?.[1]);
  if (!Number.isInteger(value)) throw new Error(`darb.conf has no ${pattern}`);
  return value;
}
const BURST = confNumber(/limit_req zone=darb_req_per_address burst=(\d+) nodelay;/);
const RATE = confNumber(/zone=darb_req_per_address:\w+ rate=(\d+)r\/s;/);
const CONNECTIONS = confNumber(/limit_conn darb_conn_per_address (\d+);/);

/** What the app sends on a non-document answer (https SITE_URL, as production and the replicas). */
const ERROR_HEADERS = hardeningHeaders("text/plain", "", { siteUrl: "https://darb.example" });
/** What it sends on a document: the names (the CSP carries each answer's nonce). */
const DOCUMENT_HEADER_NAMES = hardeningHeaders("text/html", "n", {
  siteUrl: "https://darb.example",
}).map(([name]) => name.toLowerCase());

/** How many times `name` is in an answer's header lines, and its values. */
function header(answer: RawAnswer, name: string): string[] {
  const values: string[] = [];
  const raw = answer.rawHeaders;
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]?.toLowerCase() === name.toLowerCase()) values.push(raw[i + 1] ?? "");
  return values;
}

/**
 * One request from `localAddress` to `origin`, on a connection of its own unless `agent`. nginx
 * may answer 413 and close before it has read the whole body: the answer counts (rawRequest).
 */
const visit = (
  origin: string,
  localAddress: string,
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    agent?: http.Agent;
    timeoutMs?: number;
  } = {},
) =>
  rawRequest(origin, path, {
    method: options.method,
    body: options.body,
    localAddress,
    headers: { "user-agent": IPHONE_SAFARI_18, ...options.headers },
    agent: options.agent ?? false,
    timeoutMs: options.timeoutMs ?? 10_000,
  });

/** Each of the app's non-document headers, with the app's value, exactly once. */
function expectErrorHeaders(answer: RawAnswer) {
  for (const [name, value] of ERROR_HEADERS) expect(header(answer, name), name).toEqual([value]);
  expect(header(answer, "cache-control")).toEqual(["no-store"]);
  expect(header(answer, "content-type")).toEqual(["text/plain; charset=utf-8"]);
  // nginx names no version.
  expect(header(answer, "server").join()).not.toMatch(/\d/);
}

type Slowloris = {
  /** Sockets open at the peak, opened in all, closed by nginx. */
  stats: () => { open: number; peak: number; opened: number; closedByServer: number };
  stop: () => Promise<void>;
};

/**
 * A slowloris from `localAddress`: `sockets` connections, each sending a request line and then
 * one header line every `lineEveryMs`, never the blank line that ends the header; a socket nginx
 * closes is opened again. Bounded: at most `sockets` open at once, `maxOpened` in all, and it
 * stops by itself after `durationMs` (or on stop()), destroying every socket it holds.
 */
function startSlowloris(
  origin: string,
  localAddress: string,
  { sockets = 2000, durationMs = 20_000, lineEveryMs = 2000, maxOpened = 50_000 } = {},
): Slowloris {
  if (sockets > 2000 || durationMs > 20_000) throw new Error("at most 2,000 sockets for 20 s");
  const url = new URL(origin);
  if (url.hostname !== "127.0.0.1" || !localAddress.startsWith("127.")) {
    throw new Error("loopback only");
  }
  const open = new Set<Socket>();
  let running = true;
  let opened = 0;
  let peak = 0;
  let closedByServer = 0;
  const ended = new Set<() => void>();
  function connect() {
    if (!running || open.size >= sockets || opened >= maxOpened) return;
    const n = ++opened;
    const socket = net.connect({ host: url.hostname, port: Number(url.port), localAddress });
    open.add(socket);
    peak = Math.max(peak, open.size);
    let timer: NodeJS.Timeout | undefined;
    socket.setNoDelay(true);
    socket.on("connect", () => {
      socket.write(
        `GET /?slow=${n} HTTP/1.1\r\nHost: darb.example\r\nUser-Agent: ${IPHONE_SAFARI_18}\r\n`,
      );
      timer = setInterval(() => socket.write(`X-Slow-${n}: ${Date.now()}\r\n`), lineEveryMs);
    });
    // Whatever nginx answers (408, nothing, a reset): read and dropped.
    socket.on("data", () => {});
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      open.delete(socket);
      if (running) {
        closedByServer++;
        setImmediate(connect);
      }
      if (open.size === 0) for (const done of ended) done();
    });
  }
  // Opened 100 at a time, 20 ms apart: 2,000 in 0.4 s.
  const ramp = setInterval(() => {
    for (let k = 0; k < 100; k++) connect();
    if (opened >= sockets || !running) clearInterval(ramp);
  }, 20);
  const stop = async () => {
    if (!running) return;
    running = false;
    clearInterval(ramp);
    clearTimeout(deadline);
    const gone = new Promise<void>((resolve) => {
      if (open.size === 0) resolve();
      else ended.add(resolve);
    });
    for (const socket of open) socket.destroy();
    await gone;
  };
  const deadline = setTimeout(() => void stop(), durationMs);
  return {
    stats: () => ({ open: open.size, peak, opened, closedByServer }),
    stop,
  };
}

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.99) - 1] ?? Number.NaN;
};

/** Ends the hold on the machine's load lock (tests/support/child-server.ts) this file takes. */
let release = () => {};
let replicas: ChildServer[] = [];
let proxy: NginxProxy;

/** Requests to a path the replicas logged (LOG_REQUESTS=1) that `match`es. */
const logged = (match: (path: string) => boolean) =>
  replicas
    .flatMap((replica) => replica.lines)
    .filter((line) => line.type === "request" && match(String(line.path))).length;

beforeAll(async () => {
  // p99 is measured here: no load test runs beside this file.
  release = await holdLoadLock();
  replicas = await Promise.all(
    [1, 2].map(() => startChildServer({ ...REPLICA_SETTINGS, LOG_REQUESTS: "1" })),
  );
  proxy = await startNginx(replicas.map((replica) => replica.origin));
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all(replicas.map((replica) => replica.kill()));
  release();
});

describe("deploy/nginx under a slowloris", () => {
  it("keeps answering real visitors while one address holds 2,000 slow sockets for 20 s", async () => {
    // The same visits without the attack first: the machine's own pace in this run, so that a
    // busy machine (other test files, CI's neighbours) is not taken for the attack's doing.
    const quiet: number[] = [];
    for (let n = 0; n < 30; n++) {
      const answer = await visit(
        proxy.origin,
        `127.0.0.${140 + n}`,
        n % 2 ? "/" : "/?utm_source=ig",
        {
          timeoutMs: 5000,
        },
      );
      quiet.push(answer.ms);
      await sleep(100);
    }
    const attack = startSlowloris(proxy.origin, "127.0.0.66", {
      sockets: 2000,
      durationMs: 20_000,
    });
    const answers: Array<{ status: number; ms: number; error?: string }> = [];
    try {
      // Once every socket is open: 120 visits, a new visitor every 140 ms, over the next 17 s,
      // each one sent on time whatever the others are waiting for.
      const rampEnd = Date.now() + 5000;
      while (attack.stats().opened < 2000 && Date.now() < rampEnd) await sleep(20);
      await sleep(500);
      const visits = Array.from({ length: 120 }, async (_, n) => {
        await sleep(n * 140);
        const address = `127.0.0.${10 + n}`;
        try {
          const answer = await visit(proxy.origin, address, n % 2 ? "/" : "/?utm_source=ig", {
            timeoutMs: 5000,
          });
          answers.push({ status: answer.status, ms: answer.ms });
        } catch (error) {
          answers.push({ status: 0, ms: 5000, error: String(error) });
        }
      });
      await Promise.all(visits);
    } finally {
      const during = attack.stats();
      await attack.stop();
      console.log(
        `slowloris: ${during.peak} sockets at the peak, ${during.opened} opened, ${during.closedByServer} closed by nginx`,
      );
    }
    const stats = attack.stats();
    expect(stats.open).toBe(0);
    // The attack was what the issue saw, and more: 2,000 sockets held from one address.
    expect(stats.peak).toBe(2000);
    const failed = answers.filter((answer) => answer.status !== 200);
    const latency = p99(answers.map((answer) => answer.ms));
    console.log(
      `real visitors during it: ${answers.length} requests, ${failed.length} failed, p99 ${latency.toFixed(1)} ms (${p99(quiet).toFixed(1)} ms without it), slowest ${Math.max(...answers.map((answer) => answer.ms)).toFixed(1)} ms`,
    );
    expect(answers).toHaveLength(120);
    expect(failed).toEqual([]);
    // The 500 ms on a quiet machine; on a busy one, five times its own quiet pace. The
    // old configuration failed 94 of 120 and took 5 s at p99.
    expect(latency).toBeLessThan(Math.max(500, p99(quiet) * 5));
    expect(proxy.errorLog()).not.toMatch(/worker_connections are not enough|Too many open files/);
  }, 60_000);
});

describe("deploy/nginx's own answers", () => {
  it("sends a replica's answers with each security header once, nginx adding none", async () => {
    const page = await visit(proxy.origin, "127.0.1.1", "/");
    expect(page.status).toBe(200);
    // The app's own 404 passes as the app wrote it: a document, its nonce, not nginx's text.
    const missing = await visit(proxy.origin, "127.0.1.1", "/no-such-page");
    expect(missing.status).toBe(404);
    for (const answer of [page, missing]) {
      for (const name of DOCUMENT_HEADER_NAMES) expect(header(answer, name), name).toHaveLength(1);
      expect(header(answer, "content-security-policy")[0]).toMatch(/script-src 'nonce-/);
      expect(header(answer, "content-type")[0]).toMatch(/^text\/html/);
      expect(answer.body).not.toContain("Not found.");
    }
    const asset = /\/build\/[^"]+\.js/.exec(page.body)?.[0] ?? "";
    expect(asset).toMatch(/^\/build\//);
    const cached = await visit(proxy.origin, "127.0.1.1", asset);
    expect(cached.status).toBe(200);
    for (const [name, value] of ERROR_HEADERS) expect(header(cached, name), name).toEqual([value]);
  });

  it("refuses a body over 32 KB with 413 and the app's headers, before any replica", async () => {
    const before = logged((path) => path === "/api/events");
    const answer = await visit(proxy.origin, "127.0.1.2", "/api/events", {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      body: Buffer.alloc(40_000, " "),
    });
    expect(answer.status).toBe(413);
    expectErrorHeaders(answer);
    expect(answer.body).toContain("too large");
    await sleep(200);
    expect(logged((path) => path === "/api/events")).toBe(before);
  });

  it("lets one address's burst through, then answers 429 with the app's headers; another address is untouched", async () => {
    const page = await visit(proxy.origin, "127.0.1.3", "/");
    const asset = /\/build\/[^"]+\.js/.exec(page.body)?.[0] ?? "";
    expect(asset).toMatch(/^\/build\//);
    // A /build file nginx keeps: the replicas are not asked again.
    expect((await visit(proxy.origin, "127.0.1.4", asset)).status).toBe(200);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const total = BURST + 300;
    const started = performance.now();
    let answers: RawAnswer[] = [];
    try {
      answers = await Promise.all(
        Array.from({ length: total }, () => visit(proxy.origin, "127.0.1.5", asset, { agent })),
      );
    } finally {
      agent.destroy();
    }
    const seconds = (performance.now() - started) / 1000;
    const statuses = answers.map((answer) => answer.status);
    const ok = statuses.filter((status) => status === 200).length;
    console.log(`one address, ${total} requests in ${seconds.toFixed(2)} s: ${ok} answered 200`);
    expect([...new Set(statuses)].sort()).toEqual([200, 429]);
    // The burst a NAT'd crowd gets at once, and what the address earned back meanwhile.
    expect(ok).toBeGreaterThanOrEqual(BURST);
    expect(ok).toBeLessThanOrEqual(BURST + 1 + Math.ceil(seconds * RATE) + 1);
    const refused = answers.find((answer) => answer.status === 429) as RawAnswer;
    expectErrorHeaders(refused);
    expect(header(refused, "retry-after")).toEqual(["5"]);
    expect(refused.body).toContain("Too many requests");
    // The next address, behind another NAT, gets its page.
    expect((await visit(proxy.origin, "127.0.1.6", "/")).status).toBe(200);
  });

  it("answers 502 with the app's headers when no replica is up", async () => {
    const down = await startNginx([
      `http://127.0.0.1:${await freePort()}`,
      `http://127.0.0.1:${await freePort()}`,
    ]);
    try {
      const answer = await visit(down.origin, "127.0.1.7", "/");
      expect(answer.status).toBe(502);
      expectErrorHeaders(answer);
      expect(answer.body).toContain("briefly unavailable");
    } finally {
      await down.stop();
    }
  });

  describe("in front of a replica that holds every request", () => {
    let stalled: Awaited<ReturnType<typeof startStalledUpstream>>;
    let front: NginxProxy;
    beforeAll(async () => {
      stalled = await startStalledUpstream();
      // Both upstream entries on it; nginx gives up on each after 2 s instead of 10.
      front = await startNginx([stalled.origin, stalled.origin], {
        rewrites: [["proxy_read_timeout 10s;", "proxy_read_timeout 2s;"]],
      });
    }, 30_000);
    afterAll(async () => {
      await front?.stop();
      await stalled?.close();
    });

    it("answers 504 with the app's headers once both tries time out", async () => {
      const answer = await visit(front.origin, "127.0.1.8", "/?hold=1");
      expect(answer.status).toBe(504);
      expectErrorHeaders(answer);
      expect(answer.body).toContain("briefly unavailable");
      // Each upstream entry tried once, 2 s each.
      expect(answer.ms).toBeGreaterThan(3500);
      stalled.answerAll();
    }, 20_000);

    it(`holds one address to ${CONNECTIONS} requests in progress: the next gets 429 at once, another address does not`, async () => {
      const before = stalled.seen().size;
      const held = Array.from({ length: CONNECTIONS }, (_, n) =>
        visit(front.origin, "127.0.1.9", `/?held=${n}`, { timeoutMs: 15_000 }),
      );
      try {
        const end = Date.now() + 3000;
        while (stalled.seen().size - before < CONNECTIONS && Date.now() < end) await sleep(10);
        expect(stalled.seen().size - before).toBe(CONNECTIONS);
        const refused = await visit(front.origin, "127.0.1.9", "/?held=one-more");
        expect(refused.status).toBe(429);
        expectErrorHeaders(refused);
        expect(stalled.seen().has("/?held=one-more")).toBe(false);
        // Another address, behind another NAT, reaches the replica.
        const other = visit(front.origin, "127.0.1.10", "/?held=other");
        const otherEnd = Date.now() + 1500;
        while (!stalled.seen().has("/?held=other") && Date.now() < otherEnd) await sleep(10);
        expect(stalled.seen().has("/?held=other")).toBe(true);
        stalled.answerAll();
        expect((await other).status).toBe(200);
      } finally {
        stalled.answerAll();
        const answers = await Promise.allSettled(held);
        // Released in time, each held request is answered by the replica.
        expect(answers.filter((answer) => answer.status === "fulfilled")).toHaveLength(CONNECTIONS);
      }
    }, 30_000);
  });
});

describe("operators' endpoints through deploy/nginx", () => {
  it("answers /readyz and /metrics with nginx's 404 and never asks a replica, which still answers /readyz", async () => {
    const paths = ["/readyz", "/readyz?full=1", "/READYZ", "/readyz/", "/metrics", "/metrics/x"];
    for (const path of paths) {
      const answer = await visit(proxy.origin, "127.0.1.11", path);
      expect(answer.status, path).toBe(404);
      expectErrorHeaders(answer);
      expect(answer.body).toContain("Not found");
    }
    // Something the replicas do log, after: once it is in, the paths above would be too.
    expect((await visit(proxy.origin, "127.0.1.11", "/after-readyz")).status).toBe(404);
    const end = Date.now() + 2000;
    while (logged((path) => path === "/after-readyz") === 0 && Date.now() < end) await sleep(20);
    expect(logged((path) => path === "/after-readyz")).toBe(1);
    await sleep(200);
    expect(logged((path) => /^\/(readyz|metrics)/i.test(path))).toBe(0);
    // Monitors on the private network ask a replica itself.
    for (const replica of replicas) {
      const ready = await visit(replica.origin, "127.0.0.1", "/readyz");
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.body)).toMatchObject({ status: "ok" });
    }
  });
});

/**
 * A stand-in replica that answers /healthz at once and holds every other request until
 * answerAll() (then answers it 200), or until nginx gives up on it.
 */
async function startStalledUpstream() {
  const waiting = new Set<http.ServerResponse>();
  const seen = new Set<string>();
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    if (request.url?.startsWith("/healthz")) {
      response.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    seen.add(request.url ?? "");
    waiting.add(response);
    response.on("close", () => waiting.delete(response));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen: () => seen,
    answerAll() {
      for (const response of waiting)
        response.writeHead(200, { "content-type": "text/plain" }).end("held");
      waiting.clear();
    },
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
