/**
 * A token bucket per key, in memory. Bounded: past `maxKeys` the least recently seen keys go,
 * so a flood of made-up keys cannot grow memory without end.
 */
export type RateLimiter = { take: (key: string, now?: number) => boolean; size: () => number };

export function createRateLimiter(options: {
  capacity: number;
  refillPerSecond: number;
  maxKeys: number;
}): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key, now = Date.now()) {
      const bucket = buckets.get(key) ?? { tokens: options.capacity, at: now };
      buckets.delete(key);
      const refilled = Math.min(
        options.capacity,
        bucket.tokens + ((now - bucket.at) / 1000) * options.refillPerSecond,
      );
      const allowed = refilled >= 1;
      buckets.set(key, { tokens: allowed ? refilled - 1 : refilled, at: now });
      if (buckets.size > options.maxKeys) {
        const oldest = buckets.keys().next().value;
        if (oldest !== undefined) buckets.delete(oldest);
      }
      return allowed;
    },
    size: () => buckets.size,
  };
}
