/**
 * What one visitor and one address may count for (docs/decisions/006-per-address-limits.md).
 *
 * A lead counts once per visitor, CTA, source and plan in 30 minutes (a reload, Back or a second
 * tap is the same lead). A visit without JavaScript has its GA4 session kept here too (`session`). Past that, each address may add a bounded number of leads and event
 * batches, so that one address cannot inflate the counts by changing its user agent or source;
 * the bounds are sized for carrier-grade NAT, where hundreds of phones share one address. Past a
 * bound the visitor still gets the page and the hand-off: the lead is simply not counted again,
 * and the operator's stats line counts the refusals.
 *
 * These are the limits in this process's memory; redis-limits.server.ts keeps the same numbers
 * in Redis for replicas to share, and shared-limits.server.ts chooses between them.
 */
import { createRateLimiter } from "~/leads/rate-limit.server";
import type { Visitor } from "~/leads/visitor.server";
import { type Campaign, CLICK_IDS, campaignDetails, isTagged } from "~/shared/campaign";

export const DEDUPE_WINDOW_MS = 30 * 60 * 1000;
/** Leads per address: a burst of 60 (a class of learners on one Wi-Fi), then one a minute. */
export const LEADS_PER_ADDRESS = { capacity: 60, refillPerSecond: 1 / 60 };
/** Event batches per visitor: a batch every few seconds at most; a burst of 60, then one a second. */
export const BATCHES_PER_VISITOR = { capacity: 60, refillPerSecond: 1 };
/** Event batches per address, shared by everyone behind it: a burst of 300, then five a second. */
export const BATCHES_PER_ADDRESS = { capacity: 300, refillPerSecond: 5 };

/** How many visitors, addresses and leads are remembered: older ones are forgotten first. */
const MAX_KEYS = 50_000;

export type LeadVerdict = "counted" | "repeat" | "capped";

export type LimitStats = { leads_repeated: number; leads_capped: number; batches_refused: number };

/** A GA4 session ends after 30 minutes without an event, as gtag.js's and the browser's do. */
export const SESSION_TIMEOUT_MS = 30 * 60 * 1000;

/**
 * What makes a campaign another for a session: its words (as campaign_details names them, in
 * lower case, as the lead's dedupe compares the source) and its click ids (each a new ad click).
 * "" for an untagged visit, which continues the session it finds (a visitor coming back to a
 * bare URL is still on the campaign's visit, as the browser keeps it).
 */
export function sessionCampaign(campaign: Campaign): string {
  if (!isTagged(campaign)) return "";
  const words = Object.entries(campaignDetails(campaign)).map(
    ([name, value]) => `${name}=${value.toLowerCase()}`,
  );
  const clicks = CLICK_IDS.flatMap((name) =>
    campaign[name] === undefined ? [] : [`${name}=${campaign[name]}`],
  );
  return [...words, ...clicks].join("\n");
}

/**
 * A new session's id: the second it began, as gtag.js makes them, and always after the
 * visitor's previous one, so two sessions begun within a second are still two.
 */
export function newSessionId(now: number, previous?: string): string {
  const second = Math.floor(now / 1000);
  const last = previous === undefined ? Number.NaN : Number(previous);
  return String(Number.isSafeInteger(last) && second <= last ? last + 1 : second);
}

export type Limits = {
  /** Whether a lead (`key`: what makes two leads different) counts for this visitor now. */
  lead: (visitor: Visitor, key: string, now?: number) => LeadVerdict;
  /** Whether this visitor may send one more batch of events now. */
  batch: (visitor: Visitor, now?: number) => boolean;
  /**
   * The GA4 session of a visit without JavaScript, for an event now on `campaign`
   * (sessionCampaign): the visitor's current one, unless the campaign is another or 30 minutes
   * have passed since its last event; else a new one.
   */
  session: (visitor: Visitor, campaign: string, now?: number) => string;
  stats: () => LimitStats;
};

export function createLimits(): Limits {
  const seen = new Map<string, number>();
  const leadsPerAddress = createRateLimiter({ ...LEADS_PER_ADDRESS, maxKeys: MAX_KEYS });
  const batchesPerVisitor = createRateLimiter({ ...BATCHES_PER_VISITOR, maxKeys: MAX_KEYS });
  const batchesPerAddress = createRateLimiter({ ...BATCHES_PER_ADDRESS, maxKeys: MAX_KEYS });
  const stats: LimitStats = { leads_repeated: 0, leads_capped: 0, batches_refused: 0 };
  const sessions = new Map<string, { id: string; campaign: string; last: number }>();

  return {
    lead(visitor, key, now = Date.now()) {
      const id = `${visitor.clientId}|${key}`;
      const last = seen.get(id);
      if (last !== undefined && now - last < DEDUPE_WINDOW_MS) {
        stats.leads_repeated += 1;
        return "repeat";
      }
      if (!leadsPerAddress.take(visitor.address, now)) {
        stats.leads_capped += 1;
        return "capped";
      }
      // Re-inserted, so the first key is always the least recently counted.
      seen.delete(id);
      seen.set(id, now);
      if (seen.size > MAX_KEYS) {
        const oldest = seen.keys().next().value;
        if (oldest !== undefined) seen.delete(oldest);
      }
      return "counted";
    },
    batch(visitor, now = Date.now()) {
      const allowed =
        batchesPerVisitor.take(visitor.clientId, now) &&
        batchesPerAddress.take(visitor.address, now);
      if (!allowed) stats.batches_refused += 1;
      return allowed;
    },
    session(visitor, campaign, now = Date.now()) {
      const current = sessions.get(visitor.clientId);
      const continues =
        current !== undefined &&
        now - current.last < SESSION_TIMEOUT_MS &&
        (campaign === "" || campaign === current.campaign);
      const next = continues
        ? { ...current, last: now }
        : { id: newSessionId(now, current?.id), campaign, last: now };
      // Re-inserted, so the first key is always the least recently active.
      sessions.delete(visitor.clientId);
      sessions.set(visitor.clientId, next);
      if (sessions.size > MAX_KEYS) {
        const oldest = sessions.keys().next().value;
        if (oldest !== undefined) sessions.delete(oldest);
      }
      return next.id;
    },
    stats: () => ({ ...stats }),
  };
}
