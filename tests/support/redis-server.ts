// Debian's redis-server as a child of the tests, on a free loopback port, with the settings
// deploy/compose.yaml gives it: it can be stopped, hung (SIGSTOP) and started again on the same
// port, as a Redis that is down, slow or restarted.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, sleep } from "./child-server";
import { systemTool, trackGroup } from "./system-tools";

/**
 * What deploy/compose.yaml runs Redis with (tests/integration/compose.test.ts holds it to this):
 * nothing on disk (the state is short-lived and a restart costs a few duplicates at most), and
 * bounded memory, evicting the keys nearest their expiry first (every key has one).
 */
export const REDIS_FLAGS = [
  "--save",
  "",
  "--appendonly",
  "no",
  "--maxmemory",
  "320mb",
  "--maxmemory-policy",
  "volatile-ttl",
];

export type RedisServer = {
  url: string;
  port: number;
  pid: () => number | undefined;
  /** Stops it (SIGTERM: Redis's own clean shutdown, nothing saved) and waits for the exit. */
  stop: () => Promise<void>;
  /** Starts it again on the same port, empty. */
  restart: () => Promise<void>;
  /** SIGSTOP: the connection stays open and nothing answers, as a Redis stuck or swapping. */
  hang: () => void;
  resume: () => void;
  /** Sends one command (inline protocol) and resolves with the raw reply. */
  command: (line: string) => Promise<string>;
  close: () => Promise<void>;
};

/** One inline command on a fresh connection; rejects after `timeoutMs`. */
function send(port: number, line: string, timeoutMs = 1000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let reply = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`redis on ${port} did not answer ${line} in ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${line}\r\n`));
    socket.on("data", (chunk: string) => {
      reply += chunk;
      if (reply.endsWith("\r\n")) {
        clearTimeout(timer);
        socket.end();
        resolve(reply);
      }
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Starts one on `port` (a free one unless told). */
export async function startRedis(options: { port?: number } = {}): Promise<RedisServer> {
  const binary = systemTool("redis-server");
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "darb-redis-"));
  chmodSync(dir, 0o700);
  let child: ChildProcess | undefined;
  let output = "";

  async function launch() {
    output = "";
    const started = spawn(
      binary,
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, ...REDIS_FLAGS],
      { stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    child = started;
    trackGroup(started);
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    started.stdout?.on("data", collect);
    started.stderr?.on("data", collect);
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`redis-server exited at start:\n${output}`);
      try {
        if ((await send(port, "PING", 500)).startsWith("+PONG")) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`redis-server did not answer in 10 s:\n${output}`);
      await sleep(25);
    }
  }

  async function stop() {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGCONT");
    running.kill("SIGTERM");
    const timer = setTimeout(() => running.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  }

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => child?.pid,
    stop,
    restart: launch,
    hang: () => child?.kill("SIGSTOP"),
    resume: () => child?.kill("SIGCONT"),
    command: (line) => send(port, line),
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
