import { describe, expect, it } from "vitest";
import { bounded, FIELD_LIMIT, logLine, oneLine, stamped } from "~/platform/log-line.server";
import { remixErrorLine } from "~/platform/remix-error-line.server";

describe("logLine", () => {
  it("is one line whatever the fields hold, and its type is the server's", () => {
    const forged = 'x\n{"type":"analytics_stats","dropped":99999}\r\u2028\u2029';
    const line = logLine("bad_request", { reason: forged, type: "analytics_stats" });
    expect(line.split(/[\n\r\u2028\u2029]/)).toHaveLength(1);
    expect(JSON.parse(line)).toEqual({ type: "bad_request", reason: forged });
    expect(line.startsWith('{"type":"bad_request"')).toBe(true);
  });
});

describe("bounded", () => {
  it("keeps short text and cuts long text at the limit, with an ellipsis", () => {
    expect(bounded("short")).toBe("short");
    expect(bounded("x".repeat(FIELD_LIMIT + 50))).toBe(`${"x".repeat(FIELD_LIMIT)}…`);
  });

  it("never cuts between the halves of a surrogate pair", () => {
    const text = `${"x".repeat(FIELD_LIMIT - 1)}😀tail`;
    expect(bounded(text)).toBe(`${"x".repeat(FIELD_LIMIT - 1)}…`);
    expect(JSON.stringify(bounded(text))).not.toMatch(/\\ud/i);
  });
});

describe("remixErrorLine", () => {
  const request = new Request("https://darb.example/thank-you?_data=x");

  it("a refusal of a client's request is a short line without a stack", () => {
    const refusal = {
      status: 403,
      statusText: "Forbidden",
      internal: true,
      data: "",
      error: new Error(`Route "${"y".repeat(15_000)}" does not match URL "/thank-you"`),
    };
    const line = JSON.parse(remixErrorLine(refusal, request));
    expect(line).toMatchObject({ type: "bad_request", method: "GET", path: "/thank-you" });
    expect(line).not.toHaveProperty("stack");
    expect(JSON.stringify(line).length).toBeLessThan(400);
  });

  it("a fault of ours keeps its message and a few frames, bounded", () => {
    const line = JSON.parse(remixErrorLine(new TypeError("x is undefined"), request));
    expect(line).toMatchObject({ type: "server_error", error: "x is undefined" });
    expect(line.stack.length).toBeGreaterThan(0);
    expect(line.stack.length).toBeLessThanOrEqual(5);
  });
});

describe("oneLine", () => {
  it("escapes the separators JSON leaves raw, and the line parses the same", () => {
    const json = JSON.stringify({ type: "analytics", path: "/a\u2028b\u2029c\u0085d" });
    expect(oneLine(json)).toBe('{"type":"analytics","path":"/a\\u2028b\\u2029c\\u0085d"}');
    expect(JSON.parse(oneLine(json))).toEqual(JSON.parse(json));
  });
});

describe("stamped", () => {
  const at = new Date("2026-11-28T08:00:00.000Z");

  it("adds the time and the replica after the type, keeping every field", () => {
    const line = stamped('{"type":"lead","id":"x","time_ms":3}', at);
    expect(line.startsWith('{"type":"lead","time":"2026-11-28T08:00:00.000Z","replica":')).toBe(
      true,
    );
    expect(JSON.parse(line)).toEqual({
      type: "lead",
      time: "2026-11-28T08:00:00.000Z",
      replica: expect.any(String),
      id: "x",
      time_ms: 3,
    });
  });

  it("reads a type with escaped quotes whole, and stamps a line without a type first", () => {
    expect(JSON.parse(stamped('{"type":"a\\"b","n":1}', at))).toMatchObject({
      type: 'a"b',
      n: 1,
      time: "2026-11-28T08:00:00.000Z",
    });
    expect(JSON.parse(stamped('{"n":1}', at))).toMatchObject({ n: 1, time: expect.any(String) });
    expect(JSON.parse(stamped("{}", at))).toEqual({
      time: "2026-11-28T08:00:00.000Z",
      replica: expect.any(String),
    });
    expect(stamped("not json", at)).toBe("not json");
  });
});
