import { describe, expect, it } from "vitest";
import {
  chanceToBeat,
  rateInterval,
  sampleSizePerVariant,
  type Tally,
} from "~/experiments/statistics.server";

/** A seeded generator (mulberry32): the same draws on every run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Gamma(k, 1) by Marsaglia and Tsang (k ≥ 1), from standard normals by Box–Muller. */
function gammaSampler(random: () => number) {
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return (k: number) => {
    const d = k - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let z: number;
      let v: number;
      do {
        z = normal();
        v = 1 + c * z;
      } while (v <= 0);
      v = v * v * v;
      const u = random();
      if (Math.log(u) < 0.5 * z * z + d - d * v + d * Math.log(v)) return d * v;
    }
  };
}

/** Draws from the posterior Beta(1 + x, 1 + n − x) as Gamma / (Gamma + Gamma). */
function posteriorDraws({ x, n }: Tally, count: number, seed: number): Float64Array {
  const gamma = gammaSampler(seeded(seed));
  const draws = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const g = gamma(1 + x);
    draws[i] = g / (g + gamma(1 + n - x));
  }
  return draws;
}

/** ln Γ by Lanczos (g = 7): for the closed form below, independent of stdlib. */
function logGamma(z: number): number {
  const g = 7;
  const c = [
    0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531,
    -176.6150291621406, 12.507343278686905, -0.13857109526572012, 9.984369578019572e-6,
    1.5056327351493116e-7,
  ];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const w = z - 1;
  let sum = c[0] as number;
  for (let i = 1; i < g + 2; i++) sum += (c[i] as number) / (w + i);
  const t = w + g + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (w + 0.5) * Math.log(t) - t + Math.log(sum);
}
const logBeta = (a: number, b: number) => logGamma(a) + logGamma(b) - logGamma(a + b);

/**
 * P(p_B > p_A) for Beta posteriors with integer parameters, exactly (Evan Miller, "Formulas for
 * Bayesian A/B testing"): Σ_{i=0}^{αB−1} B(αA+i, βA+βB) / ((βB+i) · B(1+i, βB) · B(αA, βA)).
 */
function closedForm(b: Tally, a: Tally): number {
  const [aA, bA, aB, bB] = [1 + a.x, 1 + a.n - a.x, 1 + b.x, 1 + b.n - b.x];
  let total = 0;
  for (let i = 0; i < aB; i++) {
    total += Math.exp(
      logBeta(aA + i, bA + bB) - Math.log(bB + i) - logBeta(1 + i, bB) - logBeta(aA, bA),
    );
  }
  return total;
}

describe("rateInterval", () => {
  it("is the uniform prior's 2.5% and 97.5% with no visitors", () => {
    const { low, high } = rateInterval({ x: 0, n: 0 });
    expect(low).toBeCloseTo(0.025, 12);
    expect(high).toBeCloseTo(0.975, 12);
  });

  it("matches the closed forms when no visitor or every visitor led", () => {
    // Beta(1, n + 1): F(p) = 1 − (1 − p)^(n+1); Beta(n + 1, 1): F(p) = p^(n+1).
    const n = 200;
    const none = rateInterval({ x: 0, n });
    expect(none.low).toBeCloseTo(1 - 0.975 ** (1 / (n + 1)), 10);
    expect(none.high).toBeCloseTo(1 - 0.025 ** (1 / (n + 1)), 10);
    const all = rateInterval({ x: n, n });
    expect(all.low).toBeCloseTo(0.025 ** (1 / (n + 1)), 10);
    expect(all.high).toBeCloseTo(0.975 ** (1 / (n + 1)), 10);
  });

  it("agrees with 200,000 posterior draws (fixed seed) to a tenth of a point", () => {
    const tally = { x: 31, n: 512 };
    const draws = posteriorDraws(tally, 200_000, 28).sort();
    const { low, high } = rateInterval(tally);
    expect(low).toBeCloseTo(draws[5_000] as number, 3);
    expect(high).toBeCloseTo(draws[195_000] as number, 3);
    // And it holds the observed rate.
    expect(low).toBeLessThan(31 / 512);
    expect(high).toBeGreaterThan(31 / 512);
  });
});

describe("chanceToBeat", () => {
  const cases: Array<[Tally, Tally]> = [
    [
      { x: 40, n: 498 },
      { x: 31, n: 512 },
    ],
    [
      { x: 3, n: 40 },
      { x: 5, n: 41 },
    ],
    // Very unequal samples: the narrow posterior is integrated, not sampled on a coarse grid.
    [
      { x: 9, n: 60 },
      { x: 1200, n: 100_000 },
    ],
    [
      { x: 2, n: 10 },
      { x: 100_000, n: 10_000_000 },
    ],
    [
      { x: 1300, n: 100_000 },
      { x: 1200, n: 100_000 },
    ],
    [
      { x: 0, n: 25 },
      { x: 2, n: 30 },
    ],
  ];

  it.each(cases)("for %o against %o equals the exact sum", (variant, control) => {
    expect(chanceToBeat(variant, control)).toBeCloseTo(closedForm(variant, control), 6);
  });

  it("agrees with 200,000 pairs of posterior draws (fixed seed)", () => {
    const variant = { x: 40, n: 498 };
    const control = { x: 31, n: 512 };
    const v = posteriorDraws(variant, 200_000, 1);
    const c = posteriorDraws(control, 200_000, 2);
    let wins = 0;
    for (let i = 0; i < v.length; i++) if ((v[i] as number) > (c[i] as number)) wins += 1;
    // The draws' standard error is about 0.001.
    expect(Math.abs(chanceToBeat(variant, control) - wins / v.length)).toBeLessThan(0.005);
  });

  it("is a half for equal tallies, and the two ways round add up to one", () => {
    expect(chanceToBeat({ x: 12, n: 300 }, { x: 12, n: 300 })).toBeCloseTo(0.5, 8);
    const one = chanceToBeat({ x: 9, n: 60 }, { x: 1200, n: 100_000 });
    const other = chanceToBeat({ x: 1200, n: 100_000 }, { x: 9, n: 60 });
    expect(one + other).toBeCloseTo(1, 8);
  });
});

describe("sampleSizePerVariant", () => {
  it("is Fleiss's figure without continuity correction: 686 per group for 10% against 15%", () => {
    expect(sampleSizePerVariant(0.1, 0.15)).toBe(686);
    expect(sampleSizePerVariant(0.15, 0.1)).toBe(686);
  });

  it("grows as the difference shrinks, and is infinite with none", () => {
    expect(sampleSizePerVariant(0.06, 0.08)).toBeGreaterThan(2000);
    expect(sampleSizePerVariant(0.06, 0.07)).toBeGreaterThan(4 * 2000 * 0.9);
    expect(sampleSizePerVariant(0.05, 0.05)).toBe(Number.POSITIVE_INFINITY);
  });
});
