/**
 * When a destination is left alone (outbox.server.ts): after failing, with backoff, or after
 * refusing the site's credentials, for the longest pause. Its own piece because three paths
 * (a failure, a refusal, a delivery) move it, and each must see what the others did.
 */
import { retryDelay } from "~/analytics/backoff";

/** The longest a destination is left alone after failing: the backoff's ceiling. */
export const MAX_PAUSE_MS = 30_000;

export type DestinationPause = ReturnType<typeof destinationPause>;

export function destinationPause(now: () => number) {
  /** Consecutive failures of the destination itself: it is left alone while it recovers. */
  let failures = 0;
  let until = 0;
  /**
   * Why: failing, nothing is sent until the pause ends; refusing the credentials, a new call
   * still has its first try (and its refusal said at once), only the held ones wait.
   */
  let reason: "failing" | "credentials" = "failing";
  return {
    until: () => until,
    /** Failing: nothing at all is sent until the pause ends. */
    holdsEverything: () => reason === "failing",
    /** One step of backoff per round: the calls that fail together count once. */
    failed() {
      if (now() >= until || reason === "credentials") {
        failures += 1;
        until = now() + retryDelay(failures);
        reason = "failing";
      }
    },
    credentialsRefused() {
      if (reason === "credentials" || now() >= until) {
        until = Math.max(until, now() + MAX_PAUSE_MS);
        reason = "credentials";
      }
    },
    delivered() {
      failures = 0;
      // Taken: whatever was held for the credentials may go now.
      if (reason === "credentials") until = 0;
    },
    /** Flushing: everything owed is due now. */
    lift() {
      until = 0;
    },
    /** No wait is ever longer than the ceiling: a clock set back must not hold calls for months. */
    boundFrom(at: number) {
      if (until > at + MAX_PAUSE_MS) until = at;
    },
  };
}
