import { describe, expect, it } from "vitest";
import { refusal } from "~/server/request-guard.server";

describe("refusal", () => {
  it("lets ordinary requests through", () => {
    expect(refusal("GET", "/", { host: "darb.example" })).toBeNull();
    expect(refusal("HEAD", "/thank-you?cta=demo", { host: "127.0.0.1:3000" })).toBeNull();
    expect(refusal("POST", "/api/events", { host: "darb.example" })).toBeNull();
    expect(refusal("POST", "/api/events?x=1", { host: "[::1]:3000" })).toBeNull();
    expect(refusal("GET", "/", {})).toBeNull();
    expect(refusal("GET", "/", { host: "x", "x-forwarded-host": "darb.example:8443" })).toBeNull();
  });

  it("lets odd but workable hosts through, as the server would", () => {
    for (const headers of [
      { host: "my_app:3000" },
      { host: "[::1]:3000" },
      { host: "DARB.example." },
      { host: "darb.example:port" },
      { host: "x", "x-forwarded-host": "a.example, b.example" },
      { host: "x", "x-forwarded-host": "a b:12" },
    ]) {
      expect(refusal("GET", "/", headers), JSON.stringify(headers)).toBeNull();
    }
  });

  it.each([
    [{ host: "a b" }],
    [{ host: "[" }],
    [{ host: "darb.example:99999" }],
    [{ host: "x", "x-forwarded-host": "darb.example:99999" }],
    [{ host: "x", "x-forwarded-host": "a.example, b:99999" }],
  ])("answers 400 where the request's URL cannot be built: %o", (headers) => {
    expect(refusal("GET", "/", headers)?.status).toBe(400);
  });

  it.each(["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])(
    "answers 405 for %s anywhere but /api/events",
    (method) => {
      expect(refusal(method, "/thank-you", { host: "x" })).toEqual({
        status: 405,
        error: "only GET and HEAD are allowed here",
      });
      expect(refusal(method, "/api/eventsx", { host: "x" })?.status).toBe(405);
      expect(refusal(method, "//evil.example/x", { host: "x" })?.status).toBe(405);
    },
  );
});
