import { describe, expect, it } from "vitest";
import { firstTimeWithin } from "~/lib/leads.server";

describe("firstTimeWithin", () => {
  it("counts a lead once in 30 minutes, then again", () => {
    const key = `visitor-${Math.random()}`;
    expect(firstTimeWithin(key, 0)).toBe(true);
    expect(firstTimeWithin(key, 29 * 60 * 1000)).toBe(false);
    expect(firstTimeWithin(key, 30 * 60 * 1000)).toBe(true);
  });
  it("keeps separate keys separate", () => {
    expect(firstTimeWithin(`a-${Math.random()}`, 0)).toBe(true);
    expect(firstTimeWithin(`b-${Math.random()}`, 0)).toBe(true);
  });
});
