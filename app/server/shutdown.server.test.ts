import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createShutdown, processShutdown, type Shutdown } from "~/server/shutdown.server";

type Harness = {
  shutdown: Shutdown;
  signals: EventEmitter;
  exits: number[];
  lines: Array<Record<string, unknown>>;
  exited: Promise<number>;
};

const made: Array<{ shutdown: Shutdown; server?: http.Server }> = [];
afterEach(async () => {
  for (const { shutdown, server } of made.splice(0)) {
    shutdown.dispose();
    server?.closeAllConnections();
    if (server?.listening) await new Promise((resolve) => server.close(resolve));
  }
});

function harness(options: { flushDeadlineMs?: number; exitDeadlineMs?: number } = {}): Harness {
  const signals = new EventEmitter();
  const exits: number[] = [];
  const lines: Array<Record<string, unknown>> = [];
  let exited: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    exited = resolve;
  });
  const shutdown = createShutdown({
    signals,
    exit: (code) => {
      exits.push(code);
      exited(code);
    },
    log: (line) => lines.push(JSON.parse(line)),
    ...options,
  });
  made.push({ shutdown });
  return { shutdown, signals, exits, lines, exited: done };
}

/** A server whose answers take `delayMs`, like a page being rendered. */
async function server(delayMs = 0) {
  const created = http.createServer((_request, response) => {
    setTimeout(() => response.end("ok"), delayMs);
  });
  await new Promise<void>((resolve) => created.listen(0, "127.0.0.1", resolve));
  const last = made[made.length - 1];
  if (last) last.server = created;
  return { server: created, port: (created.address() as AddressInfo).port };
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

describe("createShutdown", () => {
  it("on SIGTERM: answers with Connection: close, flushes, and exits 0 once the server closed", async () => {
    const { shutdown, signals, exits, lines, exited } = harness();
    const { server: site, port } = await server(50);
    const flushes: number[] = [];
    shutdown.register({
      flush: async (deadlineMs) => {
        flushes.push(deadlineMs);
      },
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(port, agent)).toEqual({ status: 200, connection: "keep-alive" });

    // A request on a kept-alive connection is in flight when the signal comes.
    const inFlight = get(port, agent);
    await new Promise((resolve) => setTimeout(resolve, 10));
    signals.emit("SIGTERM");
    expect(shutdown.stopping()).toBe(true);
    // The connection was busy, so Node does not close it: the answer arrives, saying that the
    // connection ends with it.
    expect(await inFlight).toEqual({ status: 200, connection: "close" });
    // A new connection is refused.
    await expect(get(port, agent)).rejects.toMatchObject({ code: "ECONNREFUSED" });

    expect(await exited).toBe(0);
    expect(site.listening).toBe(false);
    expect(exits).toEqual([0]);
    expect(flushes.length).toBeGreaterThanOrEqual(1);
    expect(flushes[0]).toBeGreaterThan(4900);
    expect(flushes[0]).toBeLessThanOrEqual(5000);
    expect(lines.at(-1)).toMatchObject({ type: "shutdown", signal: "SIGTERM", forced: false });
    agent.destroy();
  });

  it("answers a request in flight on a reused connection, saying the connection ends", async () => {
    const { signals, exited } = harness();
    const { port } = await server(100);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    // A first answer that promised keep-alive, before the signal.
    const early = new Promise<void>((resolve) => {
      http.get({ host: "127.0.0.1", port, agent }, (response) => {
        response.resume();
        response.on("end", () => resolve());
      });
    });
    await early;
    const next = get(port, agent);
    await new Promise((resolve) => setTimeout(resolve, 10));
    signals.emit("SIGTERM");
    expect(await next).toEqual({ status: 200, connection: "close" });
    expect(await exited).toBe(0);
    agent.destroy();
  });

  it("flushes again after the last request, for what it recorded", async () => {
    const { shutdown, signals, exited } = harness();
    const { port } = await server(200);
    const flushes: number[] = [];
    shutdown.register({
      flush: async (deadlineMs) => {
        flushes.push(deadlineMs);
      },
    });
    const agent = new http.Agent({ keepAlive: true });
    const slow = get(port, agent);
    await new Promise((resolve) => setTimeout(resolve, 20));
    signals.emit("SIGTERM");
    await slow;
    await exited;
    expect(flushes).toHaveLength(2);
    agent.destroy();
  });

  it("gives the flush at most its deadline and still exits 0 when it hangs", async () => {
    const { shutdown, signals, lines, exited } = harness({ flushDeadlineMs: 200 });
    await server();
    let got = 0;
    shutdown.register({
      flush: (deadlineMs) => {
        got = deadlineMs;
        // A well-behaved hook resolves by its deadline.
        return new Promise((resolve) => setTimeout(resolve, deadlineMs));
      },
    });
    const started = performance.now();
    signals.emit("SIGTERM");
    expect(await exited).toBe(0);
    const took = performance.now() - started;
    expect(got).toBeLessThanOrEqual(200);
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(600);
    expect(lines.at(-1)).toMatchObject({ forced: false });
  });

  it("exits 0 at the hard deadline when something never finishes, saying so", async () => {
    const { shutdown, signals, lines, exited } = harness({ exitDeadlineMs: 300 });
    shutdown.register({ flush: () => new Promise(() => undefined) });
    const started = performance.now();
    signals.emit("SIGTERM");
    expect(await exited).toBe(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(lines.at(-1)).toMatchObject({ type: "shutdown", forced: true });
  });

  it("runs beforeExit hooks right before exiting, and a second signal ends it at once", async () => {
    const { shutdown, signals, exits, lines, exited } = harness();
    const order: string[] = [];
    shutdown.register({
      flush: () => new Promise(() => undefined),
      beforeExit: () => order.push("beforeExit"),
    });
    signals.emit("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exits).toEqual([]);
    signals.emit("SIGINT");
    expect(await exited).toBe(0);
    expect(order).toEqual(["beforeExit"]);
    expect(lines.at(-1)).toMatchObject({ type: "shutdown", signal: "SIGINT", forced: true });
    signals.emit("SIGTERM");
    expect(exits).toEqual([0]);
  });

  it("closes a server nobody else closed", async () => {
    const { signals, exited } = harness();
    const { server: site, port } = await server();
    await get(port, new http.Agent({ keepAlive: false }));
    signals.emit("SIGTERM");
    await exited;
    expect(site.listening).toBe(false);
  });
});

describe("processShutdown", () => {
  it("is one per process, however often the build is imported", () => {
    const first = processShutdown();
    const listeners = process.listenerCount("SIGTERM");
    expect(processShutdown()).toBe(first);
    expect(process.listenerCount("SIGTERM")).toBe(listeners);
    expect(first.stopping()).toBe(false);
  });
});
