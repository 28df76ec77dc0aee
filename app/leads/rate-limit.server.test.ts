import { describe, expect, it } from "vitest";
import { createRateLimiter } from "~/leads/rate-limit.server";

describe("createRateLimiter", () => {
  it("allows a burst, then refuses until tokens come back", () => {
    const limiter = createRateLimiter({ capacity: 3, refillPerSecond: 1, maxKeys: 10 });
    const results = [0, 0, 0, 0].map(() => limiter.take("a", 1000));
    expect(results).toEqual([true, true, true, false]);
    expect(limiter.take("a", 1500)).toBe(false);
    expect(limiter.take("a", 2000)).toBe(true);
  });
  it("keeps keys apart", () => {
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 1, maxKeys: 10 });
    expect(limiter.take("a", 0)).toBe(true);
    expect(limiter.take("a", 0)).toBe(false);
    expect(limiter.take("b", 0)).toBe(true);
  });
  it("never holds more than maxKeys keys", () => {
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 1, maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) limiter.take(`key-${i}`, 0);
    expect(limiter.size()).toBe(100);
  });
});
