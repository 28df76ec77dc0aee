/**
 * What an outbox counts and says (outbox.server.ts): its counters, outcomes and troubles, and
 * the one log line for each call refused, given up or unconfirmed. Its own piece so that
 * settling a call, counting it and saying it stay one step that no path can do halfway.
 */
import { type PlatformError, withoutSecretsIn } from "~/analytics/verdict.server";
import type { DestinationName, Ledger, Outcome, PendingCall } from "~/leads/ledger/ledger.server";

export type Outcomes = Record<Outcome, number>;

/** Counted in events since start, beside the outcomes: what an operator is alerted on. */
export type Troubles = {
  /** Sent, no answer: may have arrived (GA4 may count a lead's twice, or not at all). */
  uncertain: number;
  /** Refused for the site's credentials: held, waiting for a new token. */
  credentialsRefused: number;
};

/** Why a call was given up: past the destination's age limit, or no room while it is down. */
export type GivenUp = "age" | "room";

export type OutboxReport = ReturnType<typeof outboxReport>;

export function outboxReport({
  destination,
  ledger,
  log,
  secrets,
  delivered,
}: {
  destination: DestinationName;
  ledger: Ledger;
  log: (line: string) => void;
  secrets: readonly string[];
  delivered?: (call: PendingCall) => void;
}) {
  const counts = { recorded: 0, sent: 0, retried: 0, dropped: 0, unconfirmed: 0 };
  const outcomes: Outcomes = { delivered: 0, refused: 0, unconfirmed: 0, given_up: 0 };
  const troubles: Troubles = { uncertain: 0, credentialsRefused: 0 };
  /** Calls whose refusal for credentials has been said, so each is said once. */
  const heldSaid = new Set<string>();

  function say(type: string, call: PendingCall, fields: Record<string, unknown> = {}) {
    log(
      JSON.stringify({
        type,
        destination,
        ...(call.lead ? { lead: call.lead } : {}),
        events: call.events,
        attempt: call.attempt + 1,
        ...fields,
      }),
    );
  }

  const errorFields = (status: number | null, error: PlatformError) => {
    const shown = withoutSecretsIn(error, secrets);
    return {
      status,
      ...(shown.code ? { code: shown.code.slice(0, 60) } : {}),
      ...(shown.message ? { message: shown.message } : {}),
    };
  };

  return {
    counts,
    outcomes,
    troubles,
    recorded(calls: PendingCall[]) {
      for (const call of calls) counts.recorded += call.events;
    },
    retried(call: PendingCall) {
      counts.retried += call.events;
    },
    uncertain(call: PendingCall) {
      troubles.uncertain += call.events;
    },
    /** Counted each time; said once per call, however often it is refused. */
    credentialsRefused(call: PendingCall, status: number | null, error: PlatformError) {
      troubles.credentialsRefused += call.events;
      if (heldSaid.has(call.id)) return;
      heldSaid.add(call.id);
      say("delivery_refused", call, {
        ...errorFields(status, error),
        held: "refused for the site's credentials: kept, and sent again once they are valid",
      });
    },
    settle(
      call: PendingCall,
      outcome: Outcome,
      said?: { status: number | null; error?: PlatformError; reason?: GivenUp },
    ) {
      ledger.settle(call.id, outcome);
      heldSaid.delete(call.id);
      outcomes[outcome] += call.events;
      if (outcome === "delivered") counts.sent += call.events;
      else if (outcome === "unconfirmed") counts.unconfirmed += call.events;
      else counts.dropped += call.events;
      // What follows a delivery comes once the call is settled and counted, never between.
      if (outcome === "delivered") delivered?.(call);
      if (outcome === "delivered" || said?.reason === "room") return;
      const type = {
        refused: "delivery_refused",
        given_up: "delivery_given_up",
        unconfirmed: "delivery_unconfirmed",
      }[outcome];
      say(type, call, {
        ...errorFields(said?.status ?? null, said?.error ?? {}),
        ...(outcome === "given_up" ? { reason: "past the destination's age limit" } : {}),
      });
    },
  };
}
