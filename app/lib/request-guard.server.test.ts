import { describe, expect, it } from "vitest";
import { refusal } from "~/lib/request-guard.server";

describe("refusal", () => {
  it("lets ordinary requests through", () => {
    expect(refusal("GET", "/", { host: "darb.example" })).toBeNull();
    expect(refusal("HEAD", "/thank-you?cta=demo", { host: "127.0.0.1:3000" })).toBeNull();
    expect(refusal("POST", "/api/events", { host: "darb.example" })).toBeNull();
    expect(refusal("POST", "/api/events?x=1", { host: "[::1]:3000" })).toBeNull();
    expect(refusal("GET", "/", {})).toBeNull();
    expect(refusal("GET", "/", { host: "x", "x-forwarded-host": "darb.example:8443" })).toBeNull();
  });

  it.each([["a b"], ["["], ["darb.example:99999"], ["darb.example:port"], ["a/b@c"]])(
    "answers 400 for the host %s",
    (value) => {
      expect(refusal("GET", "/", { host: value })?.status).toBe(400);
      expect(refusal("GET", "/", { host: "x", "x-forwarded-host": value })?.status).toBe(400);
    },
  );

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
