import { describe, expect, it } from "vitest";
import { assign } from "~/experiments/assignment.server";
import { visitorFor } from "~/leads/visitor.server";
import type { Experiment } from "~/shared/experiment";

const experiment = (weights: number[], traffic = 1): Experiment => ({
  id: "hero_headline",
  status: "running",
  traffic,
  variants: weights.map((weight, index) => ({
    id: index === 0 ? "control" : `v${index}`,
    weight,
    copy: index === 0 ? {} : { "hero.headline": { en: "x", ar: "س" } },
  })),
});

/** `n` visitors' ids, as the server makes them: distinct addresses, one phone model. */
const ids = (n: number, day = new Date("2026-11-26T09:00:00Z")) =>
  Array.from(
    { length: n },
    (_, i) =>
      visitorFor(
        { address: `10.0.${i >> 8}.${i & 255}`, userAgent: "Mozilla/5.0 (iPhone) Mobile Safari" },
        { salt: "assignment-test-salt", now: day },
      ).clientId,
  );

const shares = (test: Experiment, visitors: string[]) => {
  const counts: Record<string, number> = {};
  for (const id of visitors) {
    const variant = assign(test, id)?.variant ?? "outside";
    counts[variant] = (counts[variant] ?? 0) + 1;
  }
  return counts;
};

describe("assignment", () => {
  it("gives a visitor the same variant every time", () => {
    const test = experiment([50, 50]);
    for (const id of ids(50)) expect(assign(test, id)).toEqual(assign(test, id));
  });

  it("splits 4,000 visitors by the weights, within a binomial bound", () => {
    // 4 standard deviations of a binomial(4000, p): false alarms once in ~16,000 runs.
    const within = (count: number, p: number) =>
      Math.abs(count - 4000 * p) < 4 * Math.sqrt(4000 * p * (1 - p));
    const even = shares(experiment([50, 50]), ids(4000));
    expect(within(even.control ?? 0, 0.5)).toBe(true);
    const skewed = shares(experiment([1, 3]), ids(4000));
    expect(within(skewed.v1 ?? 0, 0.75)).toBe(true);
  });

  it("leaves outside the traffic share its part, who are not assigned", () => {
    const counts = shares(experiment([50, 50], 0.2), ids(4000));
    expect(Math.abs((counts.outside ?? 0) - 3200)).toBeLessThan(4 * Math.sqrt(4000 * 0.2 * 0.8));
  });

  it("keeps a visitor in their variant when the traffic share grows, as GrowthBook's buckets do", () => {
    const small = experiment([50, 50], 0.3);
    const large = experiment([50, 50], 0.9);
    for (const id of ids(500)) {
      const before = assign(small, id);
      if (before) expect(assign(large, id)).toEqual(before);
    }
  });

  it("assigns anew each day, with the visitor's id", () => {
    const test = experiment([50, 50]);
    const today = ids(200).map((id) => assign(test, id)?.variant);
    const tomorrow = ids(200, new Date("2026-11-27T09:00:00Z")).map(
      (id) => assign(test, id)?.variant,
    );
    expect(today).not.toEqual(tomorrow);
  });
});
