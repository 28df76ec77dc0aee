/**
 * A lead's id and chat reference, derived from who asked for what and when, so that every
 * replica gives the same lead the same ones: a lead two replicas both counted during a Redis
 * outage reaches Meta twice with one event_id, which Meta merges (docs/decisions/016-lead-ledger.md).
 */
import { createHash } from "node:crypto";
import { refFromBytes } from "~/leads/chat-ref";
import { DEDUPE_WINDOW_MS } from "~/leads/limits.server";

/**
 * The id (UUID-shaped, version 8) of the lead `key` (what makes two leads different: cta,
 * source, plan) by the visitor with `clientId` in the dedupe window that holds `at`. Two taps in
 * one window are one lead; a window later, a new one.
 */
export function leadId(salt: string, clientId: string, key: string, at: number): string {
  const window = Math.floor(at / DEDUPE_WINDOW_MS);
  const hex = createHash("sha256")
    .update(`${salt}\n${clientId}\n${key}\n${window}`)
    .digest("hex")
    .slice(0, 32)
    .split("");
  hex[12] = "8";
  hex[16] = "89ab"[Number.parseInt(hex[16] as string, 16) & 3] as string;
  const id = hex.join("");
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
}

/** The lead's id in the window before, where a repeat's first tap may be. */
export const previousWindow = (at: number) => at - DEDUPE_WINDOW_MS;

/**
 * The chat reference for lead `id`: the first of its candidates no other lead holds. The same
 * lead gets the same reference everywhere unless two leads' first candidates collide.
 */
export function chatRef(id: string, taken: (ref: string) => boolean): string {
  for (let attempt = 0; ; attempt++) {
    const ref = refFromBytes(createHash("sha256").update(`${id}\n${attempt}`).digest());
    if (!taken(ref)) return ref;
  }
}
