/**
 * The limits every request asks (docs/decisions/006-per-address-limits.md): kept in this
 * process's memory, or, with REDIS_URL, in Redis, shared by every replica
 * (docs/decisions/010-shared-state-on-redis.md). Redis failing never fails a request: while it
 * is down or slow the same limits are kept in this replica's memory, and a lead counted there
 * may be one another replica counted too. A duplicate is better than a lost lead; the stats line
 * counts them as `unconfirmed_dedupe`.
 */
import {
  createLimits,
  type LeadVerdict,
  type LimitStats,
  type Limits,
  sessionCampaign,
} from "~/leads/limits.server";
import type { Visitor } from "~/leads/visitor.server";
import type { Campaign } from "~/shared/campaign";

/**
 * Limits kept somewhere every replica sees (Redis). A call may fail or time out; the store keeps
 * count, and says when it is not worth asking.
 */
export type RemoteLimits = {
  /** Whether to ask it now; false while it is known to be down. */
  available: () => boolean;
  lead: (visitor: Visitor, key: string) => Promise<LeadVerdict>;
  batch: (visitor: Visitor) => Promise<boolean>;
  /** limits.server.ts's `session`, on the store's clock. */
  session: (visitor: Visitor, campaign: string) => Promise<string>;
  exposure: (visitor: Visitor, experiment: string) => Promise<LeadVerdict>;
  view: (visitor: Visitor, key: string) => Promise<LeadVerdict>;
  close: () => void;
};

/** Where the decisions are made right now. */
export type LimitsStore = "memory" | "redis" | "memory, redis down";

export type SharedLimits = {
  /** Whether a lead (`key`: what makes two leads different) counts for this visitor now. */
  lead: (visitor: Visitor, key: string) => Promise<LeadVerdict>;
  /** Whether this visitor may send one more batch of events now. */
  batch: (visitor: Visitor) => Promise<boolean>;
  /**
   * The GA4 session of this visitor's visit without JavaScript on this campaign, now
   * (limits.server.ts's `session`; sessionCampaign makes the campaign's key).
   */
  session: (visitor: Visitor, campaign: Campaign) => Promise<string>;
  /** Whether this visitor's view of `experiment` counts: the first today, within its address's bound. */
  exposure: (visitor: Visitor, experiment: string) => Promise<LeadVerdict>;
  /** Whether this visitor's no-JS view of a page (`key`) counts: once per session and page. */
  view: (visitor: Visitor, key: string) => Promise<LeadVerdict>;
  stats: () => LimitStats & { unconfirmed_dedupe?: number };
  store: () => LimitsStore;
  close: () => void;
};

export function createSharedLimits(remote: RemoteLimits | null = null): SharedLimits {
  const memory: Limits = createLimits();
  if (!remote) {
    return {
      lead: async (visitor, key) => memory.lead(visitor, key),
      batch: async (visitor) => memory.batch(visitor),
      session: async (visitor, campaign) => memory.session(visitor, sessionCampaign(campaign)),
      exposure: async (visitor, experiment) => memory.exposure(visitor, experiment),
      view: async (visitor, key) => memory.view(visitor, key),
      stats: memory.stats,
      store: () => "memory",
      close: () => {},
    };
  }

  // What Redis decided, counted here; what memory decided, memory counts.
  const shared: LimitStats = {
    leads_repeated: 0,
    leads_capped: 0,
    batches_refused: 0,
    exposures_capped: 0,
    views_capped: 0,
  };
  let unconfirmed = 0;

  async function ask<T>(call: () => Promise<T>): Promise<T | undefined> {
    if (!remote?.available()) return undefined;
    try {
      return await call();
    } catch {
      return undefined;
    }
  }

  return {
    async lead(visitor, key) {
      const verdict = await ask(() => remote.lead(visitor, key));
      if (verdict === undefined) {
        const local = memory.lead(visitor, key);
        if (local === "counted") unconfirmed += 1;
        return local;
      }
      if (verdict === "repeat") shared.leads_repeated += 1;
      if (verdict === "capped") shared.leads_capped += 1;
      return verdict;
    },
    async batch(visitor) {
      const allowed = await ask(() => remote.batch(visitor));
      if (allowed === undefined) return memory.batch(visitor);
      if (!allowed) shared.batches_refused += 1;
      return allowed;
    },
    async session(visitor, campaign) {
      const key = sessionCampaign(campaign);
      // Redis down: this replica's own, which another replica may not continue.
      return (await ask(() => remote.session(visitor, key))) ?? memory.session(visitor, key);
    },
    async exposure(visitor, experiment) {
      // Redis down: this replica's own marks; a visitor may then count once on each replica.
      const verdict = await ask(() => remote.exposure(visitor, experiment));
      if (verdict === undefined) return memory.exposure(visitor, experiment);
      if (verdict === "capped") shared.exposures_capped += 1;
      return verdict;
    },
    async view(visitor, key) {
      // Redis down: this replica's own marks, as for exposures.
      const verdict = await ask(() => remote.view(visitor, key));
      if (verdict === undefined) return memory.view(visitor, key);
      if (verdict === "capped") shared.views_capped += 1;
      return verdict;
    },
    stats() {
      const local = memory.stats();
      return {
        leads_repeated: local.leads_repeated + shared.leads_repeated,
        leads_capped: local.leads_capped + shared.leads_capped,
        batches_refused: local.batches_refused + shared.batches_refused,
        exposures_capped: local.exposures_capped + shared.exposures_capped,
        views_capped: local.views_capped + shared.views_capped,
        unconfirmed_dedupe: unconfirmed,
      };
    },
    store: () => (remote.available() ? "redis" : "memory, redis down"),
    close: remote.close,
  };
}
