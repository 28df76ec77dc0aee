import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CONNECT_TIMEOUT_MS, PostError, postJson } from "~/platform/http-post.server";

let server: http.Server | net.Server | undefined;
const sockets = new Set<net.Socket>();
afterEach(async () => {
  vi.useRealTimers();
  const open = server;
  server = undefined;
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  if (!open) return;
  if (open instanceof http.Server) open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

/** A GA4 that takes the request and never answers; resolves when the caller hangs up. */
async function hangingServer() {
  let hungUp: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    hungUp = resolve;
  });
  server = http.createServer((request) => {
    request.resume();
    request.socket.on("close", () => hungUp());
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/mp/collect`), closed };
}

describe("postJson", () => {
  it("gives up at once when its signal aborts, and hangs up", async () => {
    const { url, closed } = await hangingServer();
    const abort = new AbortController();
    const started = performance.now();
    const call = postJson(url, "{}", { timeoutMs: 10_000, signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    await expect(call).rejects.toThrow("aborted");
    expect(performance.now() - started).toBeLessThan(1000);
    await closed;
  });

  it("does not start when the signal has already aborted", async () => {
    const { url } = await hangingServer();
    const abort = new AbortController();
    abort.abort();
    await expect(postJson(url, "{}", { timeoutMs: 10_000, signal: abort.signal })).rejects.toThrow(
      "aborted",
    );
  });

  it("gives up after its timeout without a signal", async () => {
    const { url } = await hangingServer();
    const started = performance.now();
    await expect(postJson(url, "{}", { timeoutMs: 200 })).rejects.toThrow(
      "no answer within 200 ms",
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("says a call that ran out of time may have arrived: the server had its body", async () => {
    const { url } = await hangingServer();
    let bodySent = 0;
    const error = await postJson(url, "{}", {
      timeoutMs: 200,
      onBodySent: () => {
        bodySent += 1;
      },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PostError);
    expect((error as PostError).mayHaveArrived).toBe(true);
    expect(bodySent).toBe(1);
  });

  it("says a refused call certainly did not arrive", async () => {
    // A port that was just free: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    let bodySent = false;
    const error = await postJson(new URL(`http://127.0.0.1:${port}/`), "{}", {
      timeoutMs: 2000,
      onBodySent: () => {
        bodySent = true;
      },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PostError);
    expect((error as PostError).message).toMatch(/ECONNREFUSED/);
    expect((error as PostError).mayHaveArrived).toBe(false);
    expect(bodySent).toBe(false);
  });

  it("resolves with the status, having said the body went out", async () => {
    const bodies: string[] = [];
    server = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        bodies.push(body);
        response.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    let bodySent = 0;
    const status = await postJson(new URL(`http://127.0.0.1:${port}/`), '{"a":"ü"}', {
      timeoutMs: 2000,
      onBodySent: () => {
        bodySent += 1;
      },
    });
    expect(status).toBe(202);
    expect(bodies).toEqual(['{"a":"ü"}']);
    expect(bodySent).toBe(1);
  });
});

describe("postJson's timers", () => {
  /**
   * A server that accepts the connection but reads nothing until `read()`: a body larger than
   * the sockets' buffers cannot be written out until then.
   */
  async function stalledServer() {
    let connected: net.Socket | undefined;
    server = net.createServer((socket) => {
      sockets.add(socket);
      socket.pause();
      socket.on("error", () => undefined);
      connected = socket;
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: new URL(`http://127.0.0.1:${port}/mp/collect`),
      connected: () => connected !== undefined,
      /** Reads (and drops) everything from now on, never answering. */
      read: () => {
        connected?.on("data", () => undefined);
        connected?.resume();
      },
    };
  }

  const bigBody = () => JSON.stringify({ padding: "x".repeat(64 * 1024 * 1024) });

  async function until(condition: () => boolean, timeoutMs = 3000) {
    const start = performance.now();
    while (!condition()) {
      if (performance.now() - start > timeoutMs) throw new Error(`not met in ${timeoutMs} ms`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** A 200 ms call of a big body to a server that reads nothing yet, on faked timers, once connected. */
  async function stalledCall() {
    const stalled = await stalledServer();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const state = { bodySent: false, settled: false };
    const call = postJson(stalled.url, bigBody(), {
      timeoutMs: 200,
      onBodySent: () => {
        state.bodySent = true;
      },
    })
      .catch((caught: unknown) => caught)
      .finally(() => {
        state.settled = true;
      });
    await until(stalled.connected);
    return { call, state, stalled };
  }

  it("gives up a call whose body is not written out within CONNECT_TIMEOUT_MS: it did not arrive", async () => {
    const { call, state } = await stalledCall();
    // The answer's 200 ms do not start while the body is still going out.
    await vi.advanceTimersByTimeAsync(CONNECT_TIMEOUT_MS - 1);
    expect(state.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await call;
    expect(error).toBeInstanceOf(PostError);
    expect((error as PostError).message).toBe(`not sent within ${CONNECT_TIMEOUT_MS} ms`);
    expect((error as PostError).mayHaveArrived).toBe(false);
    expect(state.bodySent).toBe(false);
  });

  it("waits for the answer from when the body is written, not from when the call began", async () => {
    const { call, state, stalled } = await stalledCall();
    // Writing takes 5 s (a slow connection): far more than the answer's 200 ms.
    await vi.advanceTimersByTimeAsync(5000);
    expect(state.settled).toBe(false);
    stalled.read();
    await until(() => state.bodySent, 5000);
    await vi.advanceTimersByTimeAsync(199);
    expect(state.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await call;
    expect((error as PostError).message).toBe("no answer within 200 ms");
    expect((error as PostError).mayHaveArrived).toBe(true);
  });
});
