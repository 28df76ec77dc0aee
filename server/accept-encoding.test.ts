import { describe, expect, it } from "vitest";
import { accepts } from "./accept-encoding";

describe("accepts gzip", () => {
  it.each([
    ["gzip, deflate, br, zstd", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["*", true],
    ["gzip;q=0", false],
    ["gzip;q=0, *", false],
    ["br, *;q=0.5", true],
    ["*;q=0", false],
    ["gzip;q=abc", false],
    ["identity", false],
    ["br", false],
    [null, false],
    ["", false],
  ])("%s → %s", (header, expected) => {
    expect(accepts(header, "gzip")).toBe(expected);
  });
});

describe("accepts br", () => {
  it("takes brotli where it is named or covered by *, wherever it stands in the list", () => {
    expect(accepts("gzip, deflate, br, zstd", "br")).toBe(true);
    expect(accepts("gzip, *", "br")).toBe(true);
    expect(accepts("gzip, br;q=0", "br")).toBe(false);
    expect(accepts("gzip", "br")).toBe(false);
    expect(accepts(undefined, "br")).toBe(false);
  });
});
