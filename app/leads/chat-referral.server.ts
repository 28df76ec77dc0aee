/**
 * The Click-to-WhatsApp ad (or boosted post) a chat came from, as the webhook's
 * `messages[].referral` names it: only its id, whether an ad or a post, and its headline, which
 * is what the report credits the chat to. Never its text, its media or its URL: the least that
 * names the ad. The webhook keeps it this way, and the ledger believes only this on replay.
 */
import { cleanTag } from "~/shared/campaign";

export type ChatReferral = {
  /** Meta's id of the ad or post (`source_id`: digits, `pageid_postid` for some posts). */
  sourceId: string;
  sourceType?: "ad" | "post";
  /** The ad's headline, clean of control and bidi characters, at most MAX_HEADLINE. */
  headline?: string;
};

/** A headline is a line of copy; this is room for Meta's longest shown without cutting. */
export const MAX_HEADLINE = 100;
const SOURCE_ID = /^[0-9A-Za-z_-]{1,40}$/;
const SOURCE_TYPES: ReadonlySet<string> = new Set(["ad", "post"]);

const record = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

/** What is kept of a webhook message's `referral`; undefined without an id that is an id. */
export function referralOf(raw: unknown): ChatReferral | undefined {
  const referral = record(raw);
  const sourceId = typeof referral?.source_id === "string" ? referral.source_id.trim() : "";
  if (!referral || !SOURCE_ID.test(sourceId)) return undefined;
  const sourceType = referral.source_type;
  const headline = cleanTag(referral.headline, MAX_HEADLINE);
  return {
    sourceId,
    ...(typeof sourceType === "string" && SOURCE_TYPES.has(sourceType)
      ? { sourceType: sourceType as "ad" | "post" }
      : {}),
    ...(headline ? { headline } : {}),
  };
}

/** Whether a ledger line's referral is one referralOf could have kept. */
export function isReferral(value: unknown): value is ChatReferral {
  const referral = record(value);
  if (!referral) return false;
  const { sourceId, sourceType, headline } = referral;
  return (
    typeof sourceId === "string" &&
    SOURCE_ID.test(sourceId) &&
    (sourceType === undefined ||
      (typeof sourceType === "string" && SOURCE_TYPES.has(sourceType))) &&
    (headline === undefined ||
      (typeof headline === "string" && cleanTag(headline, MAX_HEADLINE) === headline))
  );
}
