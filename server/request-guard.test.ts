import { describe, expect, it } from "vitest";
import { originForm, refusal, withoutControlEscapes } from "./request-guard";

describe("refusal", () => {
  it("lets ordinary requests through", () => {
    expect(refusal("GET", "/", { host: "darb.example" })).toBeNull();
    expect(refusal("HEAD", "/thank-you?cta=demo", { host: "127.0.0.1:3000" })).toBeNull();
    expect(refusal("POST", "/api/events", { host: "darb.example" })).toBeNull();
    expect(refusal("POST", "/api/events?x=1", { host: "[::1]:3000" })).toBeNull();
    expect(refusal("GET", "/", {})).toBeNull();
    expect(refusal("GET", "/", { host: "x", expect: "100-Continue" }, "1.1")).toBeNull();
    expect(refusal("GET", "/", { host: "x", expect: "100-continue, x" }, "1.1")).toBeNull();
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

describe("the request target", () => {
  it("reads an absolute-form target as the path it names, on our own host", () => {
    expect(originForm("/share?platform=x")).toBe("/share?platform=x");
    expect(originForm("http://evil.example/share?platform=x")).toBe("/share?platform=x");
    expect(originForm("HTTPS://darb.example")).toBe("/");
    expect(refusal("GET", "http://darb.example/", { host: "darb.example" })).toBeNull();
  });

  it.each(["*", "evil.example:443", "ftp://darb.example/", "http://[/"])(
    "answers 400 for a target that is no path: %s",
    (target) => {
      expect(originForm(target)).toBeNull();
      expect(refusal("GET", target, { host: "darb.example" })).toEqual({
        status: 400,
        error: "the request target is not a path",
      });
    },
  );

  it.each(["/%zz", "/ar/%", "/%e0%a4%a", "/x%c3?ok=1"])(
    "answers 400 for a path whose escapes do not decode: %s",
    (target) => {
      expect(refusal("GET", target, { host: "darb.example" })?.status).toBe(400);
    },
  );

  it("lets escaped control characters through, as U+FFFD, to the not-found page", () => {
    expect(refusal("GET", "/x%0d", { host: "darb.example" })).toBeNull();
    expect(refusal("GET", "/ar/%0a", { host: "darb.example" })).toBeNull();
    expect(refusal("GET", "/?q=%zz", { host: "darb.example" })).toBeNull();
    expect(withoutControlEscapes("/x%0d")).toBe("/x%EF%BF%BD");
    expect(withoutControlEscapes("/ar/%0A%1f%7F%20")).toBe("/ar/%EF%BF%BD%EF%BF%BD%EF%BF%BD%20");
    // The query is the page's to read, and stays as sent.
    expect(withoutControlEscapes("/share?text=%0d%0a")).toBe("/share?text=%0d%0a");
    expect(withoutControlEscapes("/share")).toBe("/share");
    // Line and paragraph separators, which a route pattern's `.` does not match either.
    expect(withoutControlEscapes("/x%E2%80%A8y%e2%80%a9")).toBe("/x%EF%BF%BDy%EF%BF%BD");
    expect(withoutControlEscapes("/%E2%80%A7")).toBe("/%E2%80%A7");
    // And the backslash, which a URL parser reads as a slash (`/\x y` would be `//x y`, a host).
    expect(withoutControlEscapes("/%5Cx%20y?q=%5C")).toBe("/%EF%BF%BDx%20y?q=%5C");
  });
});

describe("what Node would answer without the security headers", () => {
  it("an HTTP/1.1 request without Host is a 400; HTTP/1.0 needs none", () => {
    expect(refusal("GET", "/", {}, "1.1")?.status).toBe(400);
    expect(refusal("GET", "/", { host: "" }, "1.1")?.status).toBe(400);
    expect(refusal("GET", "/", {}, "1.0")).toBeNull();
  });

  it.each(["200-ok", "", "100-continuex", "nonsense"])("Expect: %s is a 417", (value) => {
    expect(refusal("GET", "/", { host: "x", expect: value }, "1.1")?.status).toBe(417);
    expect(refusal("GET", "/", { host: "x", expect: value }, "1.0")).toBeNull();
  });
});
