import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PostError, postJson } from "~/analytics/http-post.server";

let server: http.Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
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
    const call = postJson(url, "{}", 10_000, abort.signal);
    setTimeout(() => abort.abort(), 50);
    await expect(call).rejects.toThrow("aborted");
    expect(performance.now() - started).toBeLessThan(1000);
    await closed;
  });

  it("does not start when the signal has already aborted", async () => {
    const { url } = await hangingServer();
    const abort = new AbortController();
    abort.abort();
    await expect(postJson(url, "{}", 10_000, abort.signal)).rejects.toThrow("aborted");
  });

  it("gives up after its timeout without a signal", async () => {
    const { url } = await hangingServer();
    const started = performance.now();
    await expect(postJson(url, "{}", 200)).rejects.toThrow("no answer within 200 ms");
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("says a call that ran out of time may have arrived: the server had its body", async () => {
    const { url } = await hangingServer();
    const error = await postJson(url, "{}", 200).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PostError);
    expect((error as PostError).mayHaveArrived).toBe(true);
  });

  it("says a refused call certainly did not arrive", async () => {
    // A port that was just free: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const error = await postJson(new URL(`http://127.0.0.1:${port}/`), "{}", 2000).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PostError);
    expect((error as PostError).message).toMatch(/ECONNREFUSED/);
    expect((error as PostError).mayHaveArrived).toBe(false);
  });
});
