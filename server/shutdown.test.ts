import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createShutdown, type Shutdown, type ShutdownHooks } from "./shutdown";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  }
});

type Harness = {
  shutdown: Shutdown;
  server: http.Server;
  port: number;
  exits: number[];
  lines: Array<Record<string, unknown>>;
  exited: Promise<number>;
};

/**
 * A server whose answers take `delayMs`, like a page being rendered, behind the shutdown's
 * middleware as server/http-app.ts mounts it.
 */
async function harness(
  options: {
    delayMs?: number;
    hooks?: Partial<ShutdownHooks>;
    flushDeadlineMs?: number;
    exitDeadlineMs?: number;
  } = {},
): Promise<Harness> {
  const exits: number[] = [];
  const lines: Array<Record<string, unknown>> = [];
  let exited: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    exited = resolve;
  });
  const server = http.createServer();
  servers.push(server);
  const shutdown = createShutdown({
    server,
    hooks: { flush: async () => undefined, ...options.hooks },
    exit: (code) => {
      exits.push(code);
      exited(code);
    },
    log: (line) => lines.push(JSON.parse(line)),
    flushDeadlineMs: options.flushDeadlineMs,
    exitDeadlineMs: options.exitDeadlineMs,
  });
  const app = express();
  app.use(shutdown.middleware);
  app.use((_request, response) => {
    setTimeout(() => response.end("ok"), options.delayMs ?? 0);
  });
  server.on("request", app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { shutdown, server, port, exits, lines, exited: done };
}

function get(port: number, agent: http.Agent) {
  return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, agent }, (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
        );
      })
      .on("error", reject);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("createShutdown", () => {
  it("on a signal: answers with Connection: close, flushes, and exits 0 once the server closed", async () => {
    const flushes: number[] = [];
    const { shutdown, server, port, exits, lines, exited } = await harness({
      delayMs: 50,
      hooks: {
        flush: async (deadlineMs) => {
          flushes.push(deadlineMs);
        },
      },
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(port, agent)).toEqual({ status: 200, connection: "keep-alive" });

    // A request on a kept-alive connection is in flight when the signal comes.
    const inFlight = get(port, agent);
    await pause(10);
    void shutdown.begin("SIGTERM");
    expect(shutdown.stopping()).toBe(true);
    // The connection was busy, so Node does not close it: the answer arrives, saying that the
    // connection ends with it.
    expect(await inFlight).toEqual({ status: 200, connection: "close" });
    // A new connection is refused.
    await expect(get(port, agent)).rejects.toMatchObject({ code: "ECONNREFUSED" });

    expect(await exited).toBe(0);
    expect(server.listening).toBe(false);
    expect(exits).toEqual([0]);
    expect(flushes.length).toBeGreaterThanOrEqual(1);
    expect(flushes[0]).toBeGreaterThan(4900);
    expect(flushes[0]).toBeLessThanOrEqual(5000);
    expect(lines.at(-1)).toMatchObject({ type: "shutdown", signal: "SIGTERM", forced: false });
    agent.destroy();
  });

  it("answers a request that arrives on a kept-alive connection after the signal, saying it ends", async () => {
    const { shutdown, port, exited } = await harness({ delayMs: 100 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(port, agent)).toEqual({ status: 200, connection: "keep-alive" });
    const next = get(port, agent);
    await pause(10);
    void shutdown.begin("SIGTERM");
    expect(await next).toEqual({ status: 200, connection: "close" });
    expect(await exited).toBe(0);
    agent.destroy();
  });

  it("flushes again after the last request, for what it recorded", async () => {
    const flushes: number[] = [];
    const { shutdown, port, exited } = await harness({
      delayMs: 200,
      hooks: {
        flush: async (deadlineMs) => {
          flushes.push(deadlineMs);
        },
      },
    });
    const agent = new http.Agent({ keepAlive: true });
    const slow = get(port, agent);
    await pause(20);
    void shutdown.begin("SIGTERM");
    await slow;
    await exited;
    expect(flushes).toHaveLength(2);
    agent.destroy();
  });

  it("gives the flush at most its deadline and still exits 0 when it hangs", async () => {
    let got = 0;
    const { shutdown, lines, exited } = await harness({
      flushDeadlineMs: 200,
      hooks: {
        flush: (deadlineMs) => {
          got = deadlineMs;
          // A well-behaved hook resolves by its deadline.
          return new Promise((resolve) => setTimeout(resolve, deadlineMs));
        },
      },
    });
    const started = performance.now();
    void shutdown.begin("SIGTERM");
    expect(await exited).toBe(0);
    const took = performance.now() - started;
    expect(got).toBeLessThanOrEqual(200);
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(600);
    expect(lines.at(-1)).toMatchObject({ forced: false });
  });

  it("exits 0 at the hard deadline when something never finishes, saying so", async () => {
    const { shutdown, lines, exited } = await harness({
      exitDeadlineMs: 300,
      hooks: { flush: () => new Promise(() => undefined) },
    });
    const started = performance.now();
    void shutdown.begin("SIGTERM");
    expect(await exited).toBe(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(lines.at(-1)).toMatchObject({ type: "shutdown", forced: true });
  });

  it("runs beforeExit right before exiting, and a second signal ends it at once", async () => {
    const order: string[] = [];
    const { shutdown, exits, lines, exited } = await harness({
      hooks: {
        flush: () => new Promise(() => undefined),
        beforeExit: () => order.push("beforeExit"),
      },
    });
    void shutdown.begin("SIGINT");
    await pause(20);
    expect(exits).toEqual([]);
    void shutdown.begin("SIGINT");
    expect(await exited).toBe(0);
    expect(order).toEqual(["beforeExit"]);
    expect(lines.at(-1)).toMatchObject({ type: "shutdown", signal: "SIGINT", forced: true });
    void shutdown.begin("SIGTERM");
    expect(exits).toEqual([0]);
  });

  it("closes a connection that sits idle when the signal comes", async () => {
    const { shutdown, server, port, exited } = await harness();
    const agent = new http.Agent({ keepAlive: true });
    await get(port, agent);
    const started = performance.now();
    void shutdown.begin("SIGTERM");
    await exited;
    expect(server.listening).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    agent.destroy();
  });
});
