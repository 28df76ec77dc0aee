/**
 * One try of one call (outbox.server.ts): stamped, authorized, posted, and its answer handed to
 * the call's fate. Its own piece because it is where the outbox waits, so where a close can land
 * between two steps: each step after a wait checks it.
 */
import type { CallFates } from "~/analytics/outbox-fates.server";
import type { OutboxReport } from "~/analytics/outbox-report.server";
import type { Ledger, NewCall, PendingCall } from "~/leads/ledger/ledger.server";
import { PostError, type postJson } from "~/platform/http-post.server";

export const CALL_TIMEOUT_MS = 2000;

export type AttemptOptions = {
  ledger: Ledger;
  now: () => number;
  maxAgeMs: number;
  stamp?: (call: NewCall, sentAt: number) => string | null;
  address?: (url: string) => URL;
  authorize?: () => Promise<Record<string, string>>;
  post: typeof postJson;
  /** Whether the outbox was closed meanwhile: then nothing more is written of the call. */
  closed: () => boolean;
  fates: CallFates;
  settle: OutboxReport["settle"];
};

export async function attemptCall(
  call: PendingCall,
  abort: AbortController,
  { ledger, now, maxAgeMs, stamp, address, authorize, post, closed, fates, settle }: AttemptOptions,
): Promise<void> {
  const sentAt = now();
  if (sentAt - call.at > maxAgeMs) return settle(call, "given_up", { status: null });
  const body = stamp ? stamp(call, sentAt) : call.body;
  if (body === null) return settle(call, "given_up", { status: null });
  let bodySent = false;
  let headers: Record<string, string> | undefined;
  try {
    headers = authorize ? await authorize() : undefined;
  } catch (error) {
    if (closed()) return;
    // The token endpoint refused the site's own credentials (a revoked refresh token).
    if ((error as { credentials?: boolean })?.credentials) {
      return fates.heldForCredentials(call, (error as { status?: number }).status ?? null, {
        message: "the token endpoint refused the site's credentials",
      });
    }
    return fates.later(call, true);
  }
  try {
    if (closed()) return;
    const url = address ? address(call.url) : new URL(call.url);
    let answer = "";
    const answered = await post(url, body, {
      timeoutMs: CALL_TIMEOUT_MS,
      signal: abort.signal,
      onBodySent: () => {
        bodySent = true;
        ledger.sending(call.id);
      },
      ...(headers ? { headers } : {}),
      onAnswer: (text: string) => {
        answer = text;
      },
    });
    if (closed()) return;
    return fates.verdictOf(call, answered, answer);
  } catch (error) {
    if (closed()) return;
    const mayHaveArrived = bodySent || (error instanceof PostError && error.mayHaveArrived);
    if (mayHaveArrived) return fates.uncertain(call);
    return fates.later(call, true);
  }
}
