/**
 * The leads and chats every replica can see, in Redis, when REDIS_URL is set
 * (docs/decisions/016-lead-ledger.md). Each replica keeps its own ledger on disk and copies its
 * leads and chats here through its outbox, as to any destination, so a Redis outage delays the
 * copy and loses nothing. The webhook, on whichever replica Meta reaches, finds a lead by its
 * chat reference here and claims each message id once; `npm run leads` reads every replica's
 * leads from here. Keys expire with LEAD_RETENTION_DAYS.
 *
 * Each replica's experiment exposure counts are copied too, as totals per day, experiment,
 * variant and replica (a hash per day), written only when larger than what Redis holds: a copy
 * sent twice, or an older one arriving after a newer, changes nothing, and the report sums the
 * replicas (exposure-copy.server.ts).
 */

import {
  type ChatRecord,
  dayEnd,
  type ExposureCount,
  type LeadRecord,
  type NewCall,
} from "~/leads/ledger/ledger.server";
import type { RedisConnection } from "~/leads/redis-connection.server";
import { KEY_PREFIX } from "~/leads/redis-limits.server";
import { type Post, PostError } from "~/platform/http-post.server";

const DAY_MS = 86_400_000;
/** Meta sends a delivery again for days at most: a message id is remembered for a week. */
const CHAT_CLAIM_MS = 7 * DAY_MS;

export const sharedKeys = {
  lead: (id: string) => `${KEY_PREFIX}:ledger:lead:${id}`,
  ref: (ref: string) => `${KEY_PREFIX}:ledger:ref:${ref}`,
  chat: (messageId: string) => `${KEY_PREFIX}:ledger:chat:${messageId}`,
  claim: (messageId: string) => `${KEY_PREFIX}:ledger:claim:${messageId}`,
  stage: (leadId: string, stage: string) => `${KEY_PREFIX}:ledger:stage:${leadId}:${stage}`,
  leadPattern: `${KEY_PREFIX}:ledger:lead:*`,
  chatPattern: `${KEY_PREFIX}:ledger:chat:*`,
  /** A hash per Dubai day: "experiment|variant|replica" to that replica's total. */
  exposures: (day: string) => `${KEY_PREFIX}:ledger:exposures:${day}`,
  exposuresPattern: `${KEY_PREFIX}:ledger:exposures:*`,
};

export const SHARED_URL = {
  lead: "redis:lead",
  chat: "redis:chat",
  exposures: "redis:exposures",
} as const;

/** The outbox's calls that copy a lead, or a chat and its lead's new state, to Redis. */
export function sharedLeadCall(lead: LeadRecord): NewCall {
  return {
    destination: "redis",
    url: SHARED_URL.lead,
    body: JSON.stringify({ lead }),
    events: 1,
    at: lead.at,
    lead: lead.id,
  };
}

export function sharedChatCall(chat: ChatRecord, lead: LeadRecord | undefined): NewCall {
  return {
    destination: "redis",
    url: SHARED_URL.chat,
    body: JSON.stringify({ chat, ...(lead ? { lead } : {}) }),
    events: 1,
    at: chat.at,
    ...(lead ? { lead: lead.id } : {}),
  };
}

/** The outbox's call that copies one replica's exposure totals (those that changed) to Redis. */
export function sharedExposureCall(replica: string, counts: ExposureCount[], at: number): NewCall {
  return {
    destination: "redis",
    url: SHARED_URL.exposures,
    body: JSON.stringify({ replica, exposures: counts }),
    events: counts.length,
    at,
  };
}

/**
 * Sets each field to its total only when that is larger than the one Redis holds: a replica's
 * totals only grow, so the largest is the latest, whatever order the copies arrive in.
 * ARGV: per count, the index of its day's key, the field, the total and the key's TTL (ms).
 */
const RAISE_TOTALS = `
for i = 1, #ARGV, 4 do
  local key = KEYS[tonumber(ARGV[i])]
  local total = tonumber(ARGV[i + 2])
  if total > tonumber(redis.call('HGET', key, ARGV[i + 1]) or '0') then
    redis.call('HSET', key, ARGV[i + 1], total)
  end
  redis.call('PEXPIRE', key, ARGV[i + 3])
end
return 1`;

export type SharedLedger = {
  /** The outbox's "post" for Redis: writes a copy, 204 when Redis has it. */
  post: Post;
  /** A lead another replica counted, by its chat reference; undefined when none or unknown. */
  leadByRef: (ref: string) => Promise<LeadRecord | undefined>;
  /** True the first time any replica claims the message id; null when Redis cannot say. */
  claimChat: (messageId: string) => Promise<boolean | null>;
  /** True the first time any replica records this stage of this lead; null when Redis cannot say. */
  claimStage: (leadId: string, stage: string, at: number) => Promise<boolean | null>;
  /** Every lead and chat (for the report). */
  all: () => Promise<{ leads: LeadRecord[]; chats: ChatRecord[] }>;
  /** Every replica's exposures, summed per day, experiment and variant (for the report). */
  exposures: () => Promise<ExposureCount[]>;
};

/**
 * A copy of a lead, or of a chat and its lead, written in one transaction, each key expiring with
 * the retention. Its own piece: it is what the outbox's calls to Redis amount to.
 */
async function writeCopy(
  connection: RedisConnection,
  url: URL,
  body: string,
  ttl: (at: number) => number,
): Promise<number> {
  const copy = JSON.parse(body) as { lead?: LeadRecord; chat?: ChatRecord };
  try {
    await connection.run((redis) => {
      const writes = redis.multi();
      if (copy.lead) {
        writes.set(
          sharedKeys.lead(copy.lead.id),
          JSON.stringify(copy.lead),
          "PX",
          ttl(copy.lead.at),
        );
        if (copy.lead.ref)
          writes.set(sharedKeys.ref(copy.lead.ref), copy.lead.id, "PX", ttl(copy.lead.at));
      }
      if (copy.chat && url.href === SHARED_URL.chat) {
        writes.set(
          sharedKeys.chat(copy.chat.messageId),
          JSON.stringify(copy.chat),
          "PX",
          ttl(copy.chat.at),
        );
      }
      return writes.exec();
    });
  } catch (error) {
    // Every write is a SET of the same value: sending it again is harmless.
    throw new PostError((error as Error).message, true);
  }
  return 204;
}

/**
 * One replica's exposure totals raised in Redis, a day's hash expiring when the day is past the
 * retention. Its own piece: the one copy that is not a SET, but a script.
 */
async function raiseTotals(
  connection: RedisConnection,
  copy: { replica: string; exposures: ExposureCount[] },
  retentionMs: number,
  now: () => number,
): Promise<number> {
  const keys: string[] = [];
  const args: string[] = [];
  for (const { day, experiment, variant, count } of copy.exposures) {
    const left = dayEnd(day) + retentionMs - now();
    if (!(left > 0)) continue;
    const key = sharedKeys.exposures(day);
    if (!keys.includes(key)) keys.push(key);
    const field = `${experiment}|${variant}|${copy.replica}`;
    args.push(String(keys.indexOf(key) + 1), field, String(count), String(Math.ceil(left)));
  }
  if (keys.length === 0) return 204;
  try {
    await connection.run((redis) => redis.eval(RAISE_TOTALS, keys.length, ...keys, ...args));
  } catch (error) {
    // Raising a total to the same value is harmless: sending it again is safe.
    throw new PostError((error as Error).message, true);
  }
  return 204;
}

/**
 * A key set only when absent, expiring after `px()` ms: true the first time any replica sets it,
 * false after, null when Redis cannot say. Its own piece: a chat's claim and a stage's are alike.
 */
async function claimOnce(
  connection: RedisConnection,
  key: string,
  px: () => number,
): Promise<boolean | null> {
  if (!connection.usable()) return null;
  try {
    const set = await connection.run((redis) => redis.set(key, "1", "PX", px(), "NX"));
    return set === "OK";
  } catch {
    return null;
  }
}

/** Every value under the keys matching `pattern`, a page of keys at a time. */
async function scanValues(connection: RedisConnection, pattern: string): Promise<string[]> {
  const values: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await connection.client.scan(cursor, "MATCH", pattern, "COUNT", 500);
    cursor = next;
    if (keys.length > 0) {
      for (const value of await connection.client.mget(...keys)) if (value) values.push(value);
    }
  } while (cursor !== "0");
  return values;
}

/**
 * Every replica's exposure totals, summed per day, experiment and variant; a field that is not
 * one of ours is skipped. Its own piece: it reads hashes, not values.
 */
async function summedExposures(connection: RedisConnection): Promise<ExposureCount[]> {
  const sums = new Map<string, ExposureCount>();
  let cursor = "0";
  do {
    const [next, keys] = await connection.client.scan(
      cursor,
      "MATCH",
      sharedKeys.exposuresPattern,
      "COUNT",
      500,
    );
    cursor = next;
    for (const key of keys) {
      const day = key.slice(sharedKeys.exposures("").length);
      const fields = await connection.client.hgetall(key);
      for (const [field, value] of Object.entries(fields)) {
        const [experiment, variant, replica] = field.split("|");
        const count = Number(value);
        if (!experiment || !variant || !replica || !Number.isSafeInteger(count)) continue;
        const id = `${day}|${experiment}|${variant}`;
        const sum = sums.get(id) ?? { day, experiment, variant, count: 0 };
        sum.count += count;
        sums.set(id, sum);
      }
    }
  } while (cursor !== "0");
  return [...sums.values()];
}

/**
 * The pieces over one connection: the copies written (writeCopy, raiseTotals), the claims
 * (claimOnce), and what the report reads (scanValues, summedExposures).
 */
export function createSharedLedger(
  connection: RedisConnection,
  retentionDays: number,
  now: () => number = Date.now,
): SharedLedger {
  const retentionMs = retentionDays * DAY_MS;
  const ttl = (at: number) => Math.max(1000, at + retentionMs - now());

  return {
    async post(url, body) {
      if (!connection.usable()) throw new PostError("Redis is down", false);
      if (url.href === SHARED_URL.exposures) {
        return raiseTotals(connection, JSON.parse(body), retentionMs, now);
      }
      return writeCopy(connection, url, body, ttl);
    },

    async leadByRef(ref) {
      if (!connection.usable()) return undefined;
      try {
        const id = await connection.run((redis) => redis.get(sharedKeys.ref(ref)));
        if (!id) return undefined;
        const text = await connection.run((redis) => redis.get(sharedKeys.lead(id)));
        return text ? (JSON.parse(text) as LeadRecord) : undefined;
      } catch {
        return undefined;
      }
    },

    claimChat: (messageId) =>
      claimOnce(connection, sharedKeys.claim(messageId), () => CHAT_CLAIM_MS),
    claimStage: (leadId, stage, at) =>
      claimOnce(connection, sharedKeys.stage(leadId, stage), () => ttl(at)),

    async all() {
      const leads = (await scanValues(connection, sharedKeys.leadPattern)).map(
        (v) => JSON.parse(v) as LeadRecord,
      );
      const chats = (await scanValues(connection, sharedKeys.chatPattern)).map(
        (v) => JSON.parse(v) as ChatRecord,
      );
      return { leads, chats };
    },

    exposures: () => summedExposures(connection),
  };
}
