import { describe, expect, it } from "vitest";
import { readBounded } from "~/platform/bounded-body.server";

const CHUNK = 1024;

/**
 * A chunked body (no Content-Length) of `total` bytes that makes each chunk only when asked for
 * one, counting what was taken: what the reader pulled, not what a buffer held.
 */
function chunkedBody(total: number, headers: Record<string, string> = {}) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= total) return controller.close();
        const size = Math.min(CHUNK, total - pulled);
        pulled += size;
        controller.enqueue(new Uint8Array(size).fill(97));
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request("https://darb.example/api/x", {
    method: "POST",
    headers,
    body,
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => pulled };
}

describe("readBounded", () => {
  it("gives a chunked body up to its limit whole", async () => {
    const { request } = chunkedBody(10 * CHUNK);
    const read = await readBounded(request, 10 * CHUNK);
    expect(read).toMatchObject({ ok: true });
    expect(read.ok && read.bytes.length).toBe(10 * CHUNK);
    expect(read.ok && read.bytes.every((byte) => byte === 97)).toBe(true);
  });

  it("stops reading a chunked body one chunk past its limit", async () => {
    const { request, pulled } = chunkedBody(1000 * CHUNK);
    expect(await readBounded(request, 10 * CHUNK)).toEqual({ ok: false, reason: "too_large" });
    expect(pulled()).toBeLessThanOrEqual(11 * CHUNK);
  });

  it("refuses a declared length over the limit without reading a byte", async () => {
    const { request, pulled } = chunkedBody(20 * CHUNK, { "content-length": String(20 * CHUNK) });
    expect(await readBounded(request, 10 * CHUNK)).toEqual({ ok: false, reason: "too_large" });
    expect(pulled()).toBe(0);
  });

  it("reads a body sent with its length as any other", async () => {
    const request = new Request("https://darb.example/api/x", { method: "POST", body: "{}" });
    const read = await readBounded(request, 2);
    expect(read.ok && read.bytes.toString()).toBe("{}");
    const over = new Request("https://darb.example/api/x", { method: "POST", body: "{ }" });
    expect(await readBounded(over, 2)).toEqual({ ok: false, reason: "too_large" });
  });

  it("gives an empty body for a request without one", async () => {
    const read = await readBounded(new Request("https://darb.example/api/x"), 10);
    expect(read.ok && read.bytes.length).toBe(0);
  });

  it("says a body the client stopped sending was cut short", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(8));
        controller.error(new Error("aborted"));
      },
    });
    const request = new Request("https://darb.example/api/x", {
      method: "POST",
      body,
      duplex: "half",
    } as RequestInit);
    expect(await readBounded(request, 1024)).toEqual({ ok: false, reason: "cut_short" });
  });
});
