import { describe, expect, it } from "vitest";
import { COUNTING_PAGE_KEPT_MS, keptUntil } from "~/document/kept-until.server";

const dubai = (wallClock: string) => new Date(`${wallClock}+04:00`).getTime();

describe("keptUntil", () => {
  it("ends a kept page at Dubai's next midnight, when dates and years turn over", () => {
    const since = dubai("2026-06-14T23:58:00");
    expect(keptUntil(since, null)).toBe(dubai("2026-06-15T00:00:00"));
    expect(keptUntil(dubai("2026-12-31T12:00:00"), null)).toBe(dubai("2027-01-01T00:00:00"));
  });

  it("keeps a page counting down to a fixed close a second at most, and never past the close", () => {
    const since = dubai("2026-11-25T10:00:00");
    const closes = new Date(dubai("2026-12-01T00:00:00"));
    expect(keptUntil(since, closes)).toBe(since + COUNTING_PAGE_KEPT_MS);
    expect(COUNTING_PAGE_KEPT_MS).toBeLessThanOrEqual(1000);
    const soon = new Date(since + 400);
    expect(keptUntil(since, soon)).toBe(since + 400);
  });

  it("keeps a page whose close has passed until midnight: its zeros no longer change", () => {
    const since = dubai("2026-11-25T10:00:00");
    expect(keptUntil(since, new Date(since - 1))).toBe(dubai("2026-11-26T00:00:00"));
    expect(keptUntil(since, new Date(since))).toBe(dubai("2026-11-26T00:00:00"));
  });
});
