import { type CountedForms, type Counting, counted, fill, listOf } from "~/shared/plural";

/**
 * The beta countdown's arithmetic (docs/product.md: "Beta closes 2 days after page load" unless
 * BETA_CLOSES_AT says when). Pure, so the component only renders.
 */
export const COUNTDOWN_UNITS = ["days", "hours", "mins", "secs"] as const;
export type CountdownUnit = (typeof COUNTDOWN_UNITS)[number];

export type Remaining = Record<CountdownUnit, number> & { done: boolean };

export const DEFAULT_BETA_LENGTH_MS = 2 * 24 * 60 * 60 * 1000;

/** Where a browser keeps when it first loaded the page, in ms (localStorage). */
export const BETA_START_KEY = "darb:beta-start";

/** The window property the page's start script leaves that moment in (document/countdown-start.server.ts). */
export const BETA_START_GLOBAL = "__darbBetaStart";

/** What that script marks `<html>` with while the cells would show the server's figures, not this browser's. */
export const COUNTDOWN_WAIT_ATTRIBUTE = "data-countdown-wait";

const SECOND = 1000;

/** The server has already checked BETA_CLOSES_AT; a date that still fails to parse counts as unset. */
export function countdownTarget(betaClosesAt: string | null, pageLoadedAt: number): number {
  const closes = betaClosesAt === null ? Number.NaN : new Date(betaClosesAt).getTime();
  return Number.isFinite(closes) ? closes : pageLoadedAt + DEFAULT_BETA_LENGTH_MS;
}

/**
 * Whole seconds are rounded up, so the cells reach 00 exactly when `done` turns true rather
 * than a second early.
 */
export function remaining(target: number, now: number): Remaining {
  const left = Math.max(0, Math.ceil((target - now) / SECOND));
  return {
    days: Math.floor(left / 86400),
    hours: Math.floor(left / 3600) % 24,
    mins: Math.floor(left / 60) % 60,
    secs: left % 60,
    done: left === 0,
  };
}

/**
 * How long to wait for the seconds cell to change: to the next whole second before the target
 * rather than a flat 1000 ms, which drifts and now and then skips a number.
 */
export function nextTickDelay(target: number, now: number): number {
  const left = target - now;
  if (left <= 0) return SECOND;
  return left % SECOND || SECOND;
}

export type SpokenWords = {
  /** "{duration}" stands for the counted parts, joined. */
  closesIn: string;
  underAMinute: string;
  closed: string;
  days: CountedForms;
  hours: CountedForms;
  minutes: CountedForms;
};

/**
 * What the first render shows, on the server and in the browser alike: the time left at
 * `renderedAt`, the server's clock when it rendered the page (it travels with the loader data,
 * so hydration computes the very same cells). A countdown from page load has its whole two days
 * to run at any load, cached or not; a fixed close is as old as the page (at most the render
 * cache's 5 minutes), until the browser's first tick.
 */
export function firstRemaining(betaClosesAt: string | null, renderedAt: number): Remaining {
  return remaining(countdownTarget(betaClosesAt, renderedAt), renderedAt);
}

/**
 * The countdown as one sentence, to the minute: screen readers get a sentence that changes
 * once a minute instead of a number that changes every second.
 */
export function spokenRemaining(left: Remaining, words: SpokenWords, counting: Counting): string {
  if (left.done) return words.closed;
  const parts = (
    [
      [left.days, words.days],
      [left.hours, words.hours],
      [left.mins, words.minutes],
    ] as const
  )
    .filter(([value]) => value > 0)
    .map(([value, forms]) => counted(counting, value, forms));
  if (parts.length === 0) return words.underAMinute;
  return fill(words.closesIn, { duration: listOf(counting, parts) });
}
