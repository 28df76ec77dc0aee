/**
 * The statistics of the experiments report (docs/experiments.md#the-method).
 *
 * A variant's lead rate p, after x of n visitors led, is Beta(1 + x, 1 + n − x): the posterior of
 * a binomial under a uniform prior. Its 95% interval is the posterior's 2.5% and 97.5% quantiles,
 * and the chance to beat control is P(p_variant > p_control) under the two independent
 * posteriors, by numeric integration. The beta functions are stdlib's.
 */
import type BetaCdf from "@stdlib/stats-base-dists-beta-cdf";
import type BetaPdf from "@stdlib/stats-base-dists-beta-pdf";
import type BetaQuantile from "@stdlib/stats-base-dists-beta-quantile";
import { requiredOnUse } from "~/platform/required-on-use.server";

const cdf = requiredOnUse<typeof BetaCdf>("@stdlib/stats-base-dists-beta-cdf");
const pdf = requiredOnUse<typeof BetaPdf>("@stdlib/stats-base-dists-beta-pdf");
const quantile = requiredOnUse<typeof BetaQuantile>("@stdlib/stats-base-dists-beta-quantile");

/** x visitors with a lead out of n exposed. */
export type Tally = { x: number; n: number };

const shape = ({ x, n }: Tally) => {
  const led = Math.min(Math.max(0, x), Math.max(0, n));
  return { a: 1 + led, b: 1 + Math.max(0, n) - led };
};

/** The lead rate's 95% credible interval: the posterior's 2.5% and 97.5% quantiles. */
export function rateInterval(tally: Tally): { low: number; high: number } {
  const { a, b } = shape(tally);
  const betaQuantile = quantile();
  return { low: betaQuantile(0.025, a, b), high: betaQuantile(0.975, a, b) };
}

const sd = (a: number, b: number) => Math.sqrt((a * b) / ((a + b) ** 2 * (a + b + 1)));

/** Points of Simpson's rule (an even number of intervals). */
const STEPS = 2000;
/** Each tail left out of the integration: far below what the report shows (whole percents). */
const TAIL = 1e-10;

/**
 * P(p_variant > p_control). Written as the integral of the narrower posterior's density times
 * the wider one's distribution function, over the narrower one's range (its 1e-10 and 1 − 1e-10
 * quantiles), by Simpson's rule: the density is then smooth on the grid, however unequal the
 * samples.
 */
export function chanceToBeat(variant: Tally, control: Tally): number {
  const v = shape(variant);
  const c = shape(control);
  // ∫ f_V F_C = P(V > C); ∫ f_C F_V = P(C > V) = 1 − P(V > C).
  const [betaCdf, betaPdf, betaQuantile] = [cdf(), pdf(), quantile()];
  const variantNarrower = sd(v.a, v.b) <= sd(c.a, c.b);
  const [dense, wide] = variantNarrower ? [v, c] : [c, v];
  const from = betaQuantile(TAIL, dense.a, dense.b);
  const to = betaQuantile(1 - TAIL, dense.a, dense.b);
  const h = (to - from) / STEPS;
  let sum = 0;
  for (let i = 0; i <= STEPS; i++) {
    const t = from + i * h;
    const weight = i === 0 || i === STEPS ? 1 : i % 2 === 1 ? 4 : 2;
    sum += weight * betaPdf(t, dense.a, dense.b) * betaCdf(t, wide.a, wide.b);
  }
  const integral = Math.min(1, Math.max(0, (sum * h) / 3));
  return variantNarrower ? integral : 1 - integral;
}

/** z for a two-sided α = 0.05 (the 97.5% normal quantile), and for power 0.8 (its 80%). */
const Z_ALPHA = 1.959963984540054;
const Z_POWER = 0.8416212335729143;

/**
 * Visitors per variant a two-proportion z-test needs to tell rates p1 and p2 apart, with
 * α = 0.05 two-sided and power 0.8:
 *   n = (z₀.₉₇₅ · √(2·p̄·(1 − p̄)) + z₀.₈ · √(p1·(1 − p1) + p2·(1 − p2)))² / (p1 − p2)²,
 * with p̄ = (p1 + p2) / 2. Infinity when the rates are equal: no difference to find.
 */
export function sampleSizePerVariant(p1: number, p2: number): number {
  const difference = Math.abs(p1 - p2);
  if (!(difference > 0)) return Number.POSITIVE_INFINITY;
  const mean = (p1 + p2) / 2;
  const root =
    Z_ALPHA * Math.sqrt(2 * mean * (1 - mean)) + Z_POWER * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return Math.ceil((root * root) / (difference * difference));
}
