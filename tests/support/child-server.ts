// The real thing: `node server-build/index.js` as its own process on a free loopback port, the
// way production runs it, plus a stand-in for GA4 on loopback that can be healthy, slow, failing
// or gone. Used by the shutdown, fault, flood and fuzz tests.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The production server: it loads build/index.js, where the server is (`npm run build`). */
export const SERVER = join(ROOT, "server-build/index.js");

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds, checked every 100 ms; rejects naming `what` after `ms`. */
export async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no VmRSS for ${pid}`);
  return kb / 1024;
}

export type Exit = { code: number | null; signal: NodeJS.Signals | null; at: number };

export type ChildServer = {
  origin: string;
  pid: number;
  /** Every JSON line the server wrote to stdout except the per-event analytics lines. */
  lines: Array<Record<string, unknown> & { type?: string }>;
  /** How many per-event `{"type":"analytics"}` lines it wrote (GA4 not configured). */
  analyticsLines: () => number;
  /** The first 10,000 of those lines: `{ type, name, params, client_id }`. */
  analytics: Array<{ name: string; params: Record<string, unknown>; client_id: string }>;
  stderr: () => string;
  rssMb: () => number;
  alive: () => boolean;
  exited: Promise<Exit>;
  /** Resolves with the first JSON line that matches, or rejects after `timeoutMs`. */
  waitForLine: (
    match: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ) => Promise<Record<string, unknown>>;
  /** SIGKILL if still running; for afterAll. */
  kill: () => Promise<void>;
};

/**
 * The environment a child production server starts with, as the container gives it: nothing of
 * this process's but PATH, production mode, `port` on loopback, and `env` on top.
 */
export function childServerEnv(
  port: number | string,
  env: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: "https://darb.example",
    // Each server writes a lead ledger of its own (one writer per directory).
    DATA_DIR: freshDataDir(),
    ...env,
  };
}

/** An empty directory for one server's lead ledger. */
export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), "darb-data-"));
}

/**
 * Starts the production server the way the container does, with settings for tests on top of
 * `env`, and resolves once /healthz answers.
 */
export async function startChildServer(
  env: Record<string, string> = {},
  { startWithinMs = 20_000 } = {},
): Promise<ChildServer> {
  if (!existsSync(SERVER)) throw new Error("No build: run `npm run build` (npm test does) first.");
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: childServerEnv(port, {
      ANALYTICS_SALT: "child-server-test-salt",
      TRUST_PROXY: "1",
      ...env,
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not start the server");

  const lines: ChildServer["lines"] = [];
  const analytics: ChildServer["analytics"] = [];
  let analyticsLines = 0;
  let stderr = "";
  const waiters = new Set<() => void>();
  let pending = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    pending += chunk;
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    for (const part of parts) {
      // A separator some log readers break lines at is as bad as a line that is no JSON.
      if (/[\u2028\u2029\u0085]/.test(part)) {
        lines.push({ type: "unparsed", text: part });
        continue;
      }
      try {
        const line = JSON.parse(part);
        if (line.type !== "analytics") lines.push(line);
        // Bounded: the flood and fuzz tests write a great many.
        else if (++analyticsLines <= 10_000) analytics.push(line);
      } catch {
        lines.push({ type: "unparsed", text: part });
      }
    }
    for (const wake of waiters) wake();
  });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    // Bounded: a crash loop must not fill the test's memory.
    if (stderr.length < 1_000_000) stderr += chunk;
  });
  let running = true;
  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => {
      running = false;
      resolve({ code, signal, at: performance.now() });
    });
  });

  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (!running) throw new Error(`server exited at start: ${stderr}`);
    try {
      const response = await fetch(`${origin}/healthz`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > startWithinMs) {
      child.kill("SIGKILL");
      throw new Error(`server did not answer /healthz within ${startWithinMs} ms: ${stderr}`);
    }
    await sleep(50);
  }

  return {
    origin,
    pid,
    lines,
    analyticsLines: () => analyticsLines,
    analytics,
    stderr: () => stderr,
    rssMb: () => rssMb(pid),
    alive: () => running,
    exited,
    waitForLine(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(match);
          if (!found) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(`no matching line within ${timeoutMs} ms; lines: ${JSON.stringify(lines)}`),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async kill() {
      if (!running) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** What the server wrote to stderr that means a promise was left to reject, or a crash. */
export function crashSigns(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) =>
      /unhandled|uncaught|ERR_UNHANDLED_REJECTION|FATAL ERROR|heap out of memory/i.test(line),
    );
}

export type GaMode = "ok" | "slow" | "fail" | "refused";

export type FakeGa = {
  /** Use as GA_MP_ENDPOINT. */
  endpoint: string;
  mode: () => GaMode;
  /** "refused" stops listening and drops every open connection; any other mode listens again. */
  setMode: (mode: GaMode) => Promise<void>;
  /** Requests that arrived, their events, and the events GA4 acknowledged with 204 in time. */
  counts: () => { requests: number; events: number; acknowledged: number };
  close: () => Promise<void>;
};

/** How long "slow" GA4 takes to answer: far past the site's 2 s call timeout. */
export const SLOW_GA_MS = 10_000;

/**
 * A stand-in for the GA4 Measurement Protocol on loopback. `ok` answers 204 at once, `slow`
 * after 10 s, `fail` with 500, `refused` is not listening (connection refused).
 */
export async function startFakeGa(): Promise<FakeGa> {
  let mode: GaMode = "ok";
  let requests = 0;
  let events = 0;
  let acknowledged = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((request, response) => {
    requests++;
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let count = 0;
      try {
        count = (JSON.parse(Buffer.concat(chunks).toString()) as { events: unknown[] }).events
          .length;
      } catch {
        // counted as a request only
      }
      events += count;
      if (mode === "fail") {
        response.writeHead(500).end("fail");
      } else if (mode === "slow") {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!response.destroyed) response.writeHead(204).end();
        }, SLOW_GA_MS);
        timers.add(timer);
      } else {
        acknowledged += count;
        response.writeHead(204).end();
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  let port = 0;
  let listening = false;
  const listen = async () => {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
    listening = true;
  };
  const stop = async () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    if (!listening) return;
    listening = false;
    const done = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.destroy();
    await done;
  };
  await listen();
  return {
    endpoint: `http://127.0.0.1:${port}/mp/collect`,
    mode: () => mode,
    async setMode(next) {
      mode = next;
      if (next === "refused") await stop();
      else if (!listening) await listen();
    },
    counts: () => ({ requests, events, acknowledged }),
    close: stop,
  };
}

export type Load = {
  p50: number;
  p99: number;
  max: number;
  requests: number;
  errors: number;
  non2xx: number;
  statuses: Record<string, number>;
};

/** Starts a bounded autocannon run against loopback (3 s unless told). */
/** A loopback-free visitor address for the n-th request: 10.x.y.z, trusted behind one proxy. */
export const visitorAddress = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/**
 * An autocannon request whose `name` header takes a new value, `value(n)`, on each request it
 * sends (n counts from 1): a new visitor, or a new user agent, every time.
 */
export function eachRequestWith(name: string, value: (n: number) => string) {
  let n = 0;
  return {
    setupRequest: <R extends { headers?: Record<string, string> }>(request: R): R => {
      n++;
      request.headers = { ...request.headers, [name]: value(n) };
      return request;
    },
  };
}

export function startLoad(options: autocannon.Options): autocannon.Instance {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(options.url))
    throw new Error("load only against loopback");
  return autocannon({ duration: 3, ...options });
}

export function summary(result: autocannon.Result): Load {
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statuses[code] = count;
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    errors: result.errors,
    non2xx: result.non2xx,
    statuses,
  };
}

/** A bounded autocannon run against loopback; latencies in ms. */
export async function load(options: autocannon.Options): Promise<Load> {
  return summary(await startLoad(options));
}

/**
 * A lock shared by the test files that put the machine under load, so that on a machine where
 * vitest runs files side by side their latency measurements do not disturb each other.
 */
export async function withLoadLock<T>(run: () => Promise<T>, waitMs = 300_000): Promise<T> {
  const id = createHash("sha256").update(ROOT).digest("hex").slice(0, 12);
  const dir = join(tmpdir(), `darb-load-lock-${id}`);
  const started = performance.now();
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, "pid"), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(join(dir, "pid"), "utf8"));
      } catch {
        // being created or removed right now
      }
      if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) {
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (performance.now() - started > waitMs) throw new Error(`load lock ${dir} stayed taken`);
      await sleep(100);
    }
  }
  try {
    return await run();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Takes the load lock for as long as a whole file measures (its beforeAll to its afterAll):
 * resolves once it is held, with the function that lets it go.
 */
export function holdLoadLock(): Promise<() => void> {
  return new Promise((held) => {
    void withLoadLock(() => new Promise<void>((done) => held(done)));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
