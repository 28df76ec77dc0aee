import { describe, expect, it } from "vitest";
import { describeError } from "~/shared/errors";

describe("describeError", () => {
  it("keeps the stack only when asked to (development)", () => {
    const error = new Error("boom");
    expect(describeError(error, false)).toEqual({ status: 500, detail: "boom", stack: undefined });
    expect(describeError(error, true).stack).toContain("boom");
  });
  it("says something useful for values that are not errors", () => {
    expect(describeError("a string", true)).toEqual({ status: 500, detail: "Unknown error" });
  });
  it("is not fooled by a plain object shaped like a response", () => {
    expect(describeError({ status: 404, statusText: "Not Found" }, false).detail).toBe(
      "Unknown error",
    );
  });
});
