/**
 * What one visitor and one address may count for (docs/decisions/006-per-address-limits.md).
 *
 * A lead counts once per visitor, CTA, source and plan in 30 minutes (a reload, Back or a second
 * tap is the same lead). A visit without JavaScript has its GA4 session kept here too (`session`). Past that, each address may add a bounded number of leads and event
 * batches, so that one address cannot inflate the counts by changing its user agent or source;
 * the bounds are sized for carrier-grade NAT, where hundreds of phones share one address. An
 * "address" here is an IPv4 address or an IPv6 /64 (address-key.server.ts): one phone or one home
 * gets a whole /64, and would otherwise have 2^64 addresses to spend. Past a
 * bound the visitor still gets the page and the hand-off: the lead is simply not counted again,
 * and the operator's stats line counts the refusals.
 *
 * These are the limits in this process's memory; redis-limits.server.ts keeps the same numbers
 * in Redis for replicas to share, and shared-limits.server.ts chooses between them.
 */
import { addressKey } from "~/leads/address-key.server";
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

/**
 * A visitor's first view of an experiment's variant counts once a day (their id is the day's); an
 * address counts a burst of 300 views, then one every 2 seconds, so a script cycling user agents
 * cannot dilute a test (docs/decisions/022-experiments.md).
 */
export const EXPOSURE_WINDOW_MS = 26 * 3600_000;
export const EXPOSURES_PER_ADDRESS = { capacity: 300, refillPerSecond: 1 / 2 };
/** Visitors whose view of today's experiment is remembered: a day of a busy campaign. */
const MAX_EXPOSURE_KEYS = 200_000;

/**
 * A page's view without JavaScript (analytics/no-js-view.server.ts) counts once per visitor,
 * session and page for the visitor id's day (a reload is no new view); an address counts what it
 * may send the browser's events, a burst of 300, then five a second.
 */
export const VIEW_WINDOW_MS = EXPOSURE_WINDOW_MS;
export const VIEWS_PER_ADDRESS = BATCHES_PER_ADDRESS;

/** How many visitors, addresses and leads are remembered: older ones are forgotten first. */
const MAX_KEYS = 50_000;

export type LeadVerdict = "counted" | "repeat" | "capped";

export type LimitStats = {
  leads_repeated: number;
  leads_capped: number;
  batches_refused: number;
  exposures_capped: number;
  views_capped: number;
};

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
  /** Whether this visitor's view of `experiment` counts now: the first today, within its address's bound. */
  exposure: (visitor: Visitor, experiment: string, now?: number) => LeadVerdict;
  /** Whether this visitor's no-JS view (`key`: its session and page) counts now, as `exposure`. */
  view: (visitor: Visitor, key: string, now?: number) => LeadVerdict;
  stats: () => LimitStats;
};

/** A mark per key for `windowMs`, the oldest forgotten past `maxKeys`. */
function createMarks(windowMs: number, maxKeys: number) {
  const marks = new Map<string, number>();
  return {
    has: (key: string, now: number) => {
      const last = marks.get(key);
      return last !== undefined && now - last < windowMs;
    },
    set(key: string, now: number) {
      // Re-inserted, so the first key is always the least recently marked.
      marks.delete(key);
      marks.set(key, now);
      if (marks.size > maxKeys) {
        const oldest = marks.keys().next().value;
        if (oldest !== undefined) marks.delete(oldest);
      }
    },
  };
}

export function createLimits(): Limits {
  const seen = createMarks(DEDUPE_WINDOW_MS, MAX_KEYS);
  const exposed = createMarks(EXPOSURE_WINDOW_MS, MAX_EXPOSURE_KEYS);
  const exposuresPerAddress = createRateLimiter({ ...EXPOSURES_PER_ADDRESS, maxKeys: MAX_KEYS });
  const viewed = createMarks(VIEW_WINDOW_MS, MAX_EXPOSURE_KEYS);
  const viewsPerAddress = createRateLimiter({ ...VIEWS_PER_ADDRESS, maxKeys: MAX_KEYS });
  const leadsPerAddress = createRateLimiter({ ...LEADS_PER_ADDRESS, maxKeys: MAX_KEYS });
  const batchesPerVisitor = createRateLimiter({ ...BATCHES_PER_VISITOR, maxKeys: MAX_KEYS });
  const batchesPerAddress = createRateLimiter({ ...BATCHES_PER_ADDRESS, maxKeys: MAX_KEYS });
  const stats: LimitStats = {
    leads_repeated: 0,
    leads_capped: 0,
    batches_refused: 0,
    exposures_capped: 0,
    views_capped: 0,
  };
  const sessions = new Map<string, { id: string; campaign: string; last: number }>();

  return {
    lead(visitor, key, now = Date.now()) {
      const id = `${visitor.clientId}|${key}`;
      if (seen.has(id, now)) {
        stats.leads_repeated += 1;
        return "repeat";
      }
      if (!leadsPerAddress.take(addressKey(visitor.address), now)) {
        stats.leads_capped += 1;
        return "capped";
      }
      seen.set(id, now);
      return "counted";
    },
    exposure(visitor, experiment, now = Date.now()) {
      const id = `${visitor.clientId}|${experiment}`;
      if (exposed.has(id, now)) return "repeat";
      if (!exposuresPerAddress.take(addressKey(visitor.address), now)) {
        stats.exposures_capped += 1;
        return "capped";
      }
      exposed.set(id, now);
      return "counted";
    },
    view(visitor, key, now = Date.now()) {
      const id = `${visitor.clientId}|${key}`;
      if (viewed.has(id, now)) return "repeat";
      if (!viewsPerAddress.take(addressKey(visitor.address), now)) {
        stats.views_capped += 1;
        return "capped";
      }
      viewed.set(id, now);
      return "counted";
    },
    batch(visitor, now = Date.now()) {
      const allowed =
        batchesPerVisitor.take(visitor.clientId, now) &&
        batchesPerAddress.take(addressKey(visitor.address), now);
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
