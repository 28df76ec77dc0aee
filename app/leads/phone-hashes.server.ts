/**
 * A chat's phone number, kept only as the ad networks match it: the WhatsApp webhook hashes it as
 * it arrives, the ledger keeps the hashes with the chat, and each destination sends the form it
 * documents.
 */
import { createHash } from "node:crypto";

/**
 * A phone number as the networks match it, hashed (SHA-256, lower-case hex) in the two forms
 * they document: E.164 with its "+" (Google, TikTok), and the same digits without it (Meta,
 * Snap). The number itself is never kept.
 */
export type PhoneHashes = { e164: string; digits: string };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * A WhatsApp number (the webhook's `from`: country code and digits, no "+") as the networks
 * match it, or null when it is no number: 8 to 15 digits, no leading zero (E.164's own rule).
 */
export function phoneHashes(waId: string): PhoneHashes | null {
  const digits = waId.replace(/[\s+()-]/g, "").replace(/^00/, "");
  if (!/^[1-9]\d{7,14}$/.test(digits)) return null;
  return { e164: sha256(`+${digits}`), digits: sha256(digits) };
}
