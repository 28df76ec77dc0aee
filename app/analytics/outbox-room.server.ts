/**
 * The ceiling on a browser's events a destination is owed while it is down (outbox.server.ts).
 * Its own piece because it keeps its own state (since when it is full, and what it gave up) and
 * says it in its own two lines.
 */
import type { OutboxReport } from "~/analytics/outbox-report.server";
import type { DestinationName, Ledger } from "~/leads/ledger/ledger.server";

/**
 * Past the ceiling, the oldest browser calls not out right now are given up, counted, and said
 * in one line when it starts and one when there is room again: a line per call would be a
 * line per page view for as long as the outage lasts. Returns what keeps the room.
 */
export function roomKeeper({
  destination,
  ledger,
  maxBrowserCalls,
  log,
  now,
  settle,
  isOut,
}: {
  destination: DestinationName;
  ledger: Ledger;
  maxBrowserCalls: number;
  log: (line: string) => void;
  now: () => number;
  settle: OutboxReport["settle"];
  /** Whether a call is out right now: it is not given up under its own answer. */
  isOut: (id: string) => boolean;
}) {
  /** Since when browser events are given up for room, and how many; null while there is room. */
  let full: { since: number; events: number } | null = null;

  return function keepRoom() {
    let over = ledger.browserCallsOwed(destination) - maxBrowserCalls;
    if (over <= 0) {
      if (full) {
        log(
          JSON.stringify({
            type: "delivery_room",
            destination,
            state: "room again",
            given_up_events: full.events,
            ms: now() - full.since,
          }),
        );
        full = null;
      }
      return;
    }
    if (!full) {
      full = { since: now(), events: 0 };
      log(
        JSON.stringify({
          type: "delivery_room",
          destination,
          state: "full",
          browser_calls: maxBrowserCalls,
          reason: "the destination is not taking calls: the oldest browser events are given up",
        }),
      );
    }
    for (const call of ledger.pendingOf(destination)) {
      if (over <= 0) break;
      if (!call.browser || isOut(call.id)) continue;
      settle(call, "given_up", { status: null, reason: "room" });
      full.events += call.events;
      over -= 1;
    }
  };
}
