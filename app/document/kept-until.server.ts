import { nextDubaiMidnight } from "~/shared/download-deadline";

/** A page that counts down to a fixed close is served from memory this long at most. */
export const COUNTING_PAGE_KEPT_MS = 1000;

/**
 * Until when a document whose request arrived at `since` may be served from the render cache,
 * besides its 5 minutes of freshness: what a page says of the time must not outlive it
 * (docs/decisions/018-countdown-that-keeps-its-word.md).
 * - Dubai's next midnight turns the footer's year and, on 15 June, the download note's year.
 * - Before BETA_CLOSES_AT, the countdown's figures are the render's, which hydration keeps until
 *   the first tick: a page a second old at most, so the tick moves them as a tick does, and
 *   "Beta closes" turns into "Beta closed" on time. About one render a second per page a
 *   campaign sends visitors to (12 ms each), whatever the traffic.
 */
export function keptUntil(since: number, betaClosesAt: Date | null): number {
  const midnight = nextDubaiMidnight(since);
  const closes = betaClosesAt?.getTime();
  return closes !== undefined && closes > since
    ? Math.min(midnight, closes, since + COUNTING_PAGE_KEPT_MS)
    : midnight;
}
