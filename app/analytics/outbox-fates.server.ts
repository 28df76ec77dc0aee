/**
 * What becomes of a call after a try (outbox.server.ts): settled, sent again after backoff,
 * held for the site's credentials, or, with no answer, the destination's rule for repeats. Its
 * own piece because these rules are the outbox's promise (decisions 008 and 016), read apart
 * from how calls are sent.
 */

import { retryDelay } from "~/analytics/backoff";
import { type DestinationPause, MAX_PAUSE_MS } from "~/analytics/outbox-pause.server";
import type { OutboxReport } from "~/analytics/outbox-report.server";
import type { PlatformError, Verdict } from "~/analytics/verdict.server";
import type { Ledger, PendingCall } from "~/leads/ledger/ledger.server";

/** How long GA4 is given before a lead's call with no answer is sent once more. */
export const UNCERTAIN_RESEND_AFTER_MS = 10 * 60_000;

export type CallFates = ReturnType<typeof callFates>;

export function callFates({
  ledger,
  now,
  pause,
  report,
  deduplicates,
  maxAgeMs,
  judge,
}: {
  ledger: Ledger;
  now: () => number;
  pause: DestinationPause;
  report: OutboxReport;
  /** Whether the destination drops a repeated event itself, so a call may be sent twice. */
  deduplicates: boolean;
  maxAgeMs: number;
  judge: (status: number, answer: string) => Verdict;
}) {
  const { settle } = report;

  /** A call with no answer whose body went out. */
  function uncertain(call: PendingCall, { interrupted = false } = {}) {
    report.uncertain(call);
    // Out when the process stopped says nothing of the destination: it is not paused for it.
    if (deduplicates) return later(call, !interrupted);
    // GA4 keeps every copy: a lead is worth one late copy at most, other events none.
    if (call.lead && call.uncertain === 0) {
      report.retried(call);
      ledger.retryLater(call.id, call.attempt + 1, now() + UNCERTAIN_RESEND_AFTER_MS, 1);
      return;
    }
    settle(call, "unconfirmed", { status: null, error: { message: "sent, and no answer came" } });
  }

  /** Sent again after backoff; the destination pauses too when it is the one failing. */
  function later(call: PendingCall, destinationFailed: boolean, status: number | null = null) {
    if (destinationFailed) pause.failed();
    const attempt = call.attempt + 1;
    if (now() + retryDelay(attempt) - call.at > maxAgeMs) {
      return settle(call, "given_up", { status });
    }
    report.retried(call);
    ledger.retryLater(call.id, attempt, now() + retryDelay(attempt), call.uncertain);
  }

  /**
   * Refused for the site's credentials: nothing is wrong with the call, so it is kept, said once,
   * and tried again after the longest pause (a new token comes with a restart).
   */
  function heldForCredentials(call: PendingCall, status: number | null, error: PlatformError) {
    report.credentialsRefused(call, status, error);
    pause.credentialsRefused();
    if (now() + MAX_PAUSE_MS - call.at > maxAgeMs) {
      return settle(call, "given_up", { status, error });
    }
    ledger.retryLater(call.id, call.attempt + 1, now() + MAX_PAUSE_MS, call.uncertain);
  }

  function verdictOf(call: PendingCall, status: number, answer: string) {
    const verdict = judge(status, answer);
    switch (verdict.kind) {
      case "delivered":
        pause.delivered();
        return settle(call, "delivered");
      case "refused":
        return settle(call, "refused", { status, error: verdict });
      case "credentials":
        return heldForCredentials(call, status, verdict);
      case "retry":
        return later(call, true, status);
    }
  }

  return { uncertain, later, heldForCredentials, verdictOf };
}
