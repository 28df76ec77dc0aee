/**
 * The limits of limits.server.ts kept in Redis, so that every replica counts against the same
 * ones (docs/decisions/010-shared-state-on-redis.md). Each decision is one Lua script, atomic on
 * the server and timed by the server's clock, so replicas whose clocks differ still agree.
 *
 * What is stored: keyed hashes (HMAC with ANALYTICS_SALT) of the address, of the visitor id
 * with the lead's key, and of a visit's campaign with its session id, and counters. Never an address, a user agent or a campaign word. Every key
 * expires: a lead's mark after the 30-minute window, a session 30 minutes after its last event, a bucket once it would be full again (an
 * absent bucket is a full one). The hash of the address's key (address-key.server.ts: an IPv4
 * address, an IPv6 /64, as in memory) is a Cluster hash tag, so one decision's keys share a slot.
 */
import { createHmac } from "node:crypto";
import type { Result } from "ioredis";
import { addressKey } from "~/leads/address-key.server";
import {
  BATCHES_PER_ADDRESS,
  BATCHES_PER_VISITOR,
  DEDUPE_WINDOW_MS,
  EXPOSURE_WINDOW_MS,
  EXPOSURES_PER_ADDRESS,
  LEADS_PER_ADDRESS,
  type LeadVerdict,
  SESSION_TIMEOUT_MS,
  VIEW_WINDOW_MS,
  VIEWS_PER_ADDRESS,
} from "~/leads/limits.server";
import type { RedisConnection } from "~/leads/redis-connection.server";
import type { RemoteLimits } from "~/leads/shared-limits.server";
import type { Visitor } from "~/leads/visitor.server";
import { SESSION_ID } from "~/shared/events";

export const KEY_PREFIX = "darb";

type Bucket = { capacity: number; refillPerSecond: number };

/** A bucket's arguments: capacity, tokens per millisecond, and how long until it is full again. */
function bucketArgs({ capacity, refillPerSecond }: Bucket): number[] {
  const perMs = refillPerSecond / 1000;
  return [capacity, perMs, Math.ceil(capacity / perMs) + 1000];
}

// The token bucket of rate-limit.server.ts, in Lua: refilled by elapsed time, one token taken.
const TAKE = `
local function take(key, capacity, per_ms, ttl, now)
  local bucket = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = tonumber(bucket[1]) or capacity
  local at = tonumber(bucket[2]) or now
  tokens = math.min(capacity, tokens + math.max(0, now - at) * per_ms)
  local allowed = tokens >= 1
  if allowed then tokens = tokens - 1 end
  redis.call('HSET', key, 'tokens', tokens, 'at', now)
  redis.call('PEXPIRE', key, ttl)
  return allowed
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

/** KEYS: the lead's mark, the address's bucket. Returns 0 counted, 1 repeat, 2 capped. */
const LEAD = `${TAKE}
if redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
if not take(KEYS[2], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), now) then
  return 2
end
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX')
return 0
`;

/** KEYS: the visitor's bucket, the address's. The address pays only for what the visitor may. */
const BATCH = `${TAKE}
if not take(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), now) then
  return 0
end
if not take(KEYS[2], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), now) then
  return 0
end
return 1
`;

/**
 * KEYS: the visitor's session. ARGV: the campaign's hash ("" untagged), the timeout. Returns the
 * session id: the current one, unless the campaign is another (its expiry is the 30 minutes
 * since its last event); else a new one, the server's second, after the previous id.
 */
const SESSION = `
local current = redis.call('HMGET', KEYS[1], 'id', 'campaign')
if current[1] and (ARGV[1] == '' or ARGV[1] == current[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return current[1]
end
local id = tonumber(redis.call('TIME')[1])
local previous = tonumber(current[1] or '')
if previous and id <= previous then id = previous + 1 end
id = string.format('%d', id)
redis.call('HSET', KEYS[1], 'id', id, 'campaign', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return id
`;

declare module "ioredis" {
  interface RedisCommander<Context> {
    darbLead(mark: string, bucket: string, ...args: number[]): Result<number, Context>;
    darbBatch(visitor: string, address: string, ...args: number[]): Result<number, Context>;
    darbSession(
      session: string,
      campaign: string,
      timeoutMs: number,
    ): Result<string | number, Context>;
  }
}

const VERDICTS: LeadVerdict[] = ["counted", "repeat", "capped"];

/**
 * The keys one visitor's decisions use, all under the hash tag of its address's key: the buckets
 * are an IPv6 /64's, shared by its addresses; the visitor's own marks are its id's, which its full
 * address made.
 */
export function redisKeys(salt: string) {
  const hash = (text: string) =>
    createHmac("sha256", salt).update(text).digest("base64url").slice(0, 22);
  const tag = (visitor: Visitor) =>
    `${KEY_PREFIX}:{${hash(`address\n${addressKey(visitor.address)}`)}}`;
  return {
    lead: (visitor: Visitor, key: string) =>
      `${tag(visitor)}:lead:${hash(`lead\n${visitor.clientId}\n${key}`)}`,
    leadsPerAddress: (visitor: Visitor) => `${tag(visitor)}:leads`,
    exposure: (visitor: Visitor, experiment: string) =>
      `${tag(visitor)}:exposure:${hash(`exposure\n${visitor.clientId}\n${experiment}`)}`,
    exposuresPerAddress: (visitor: Visitor) => `${tag(visitor)}:exposures`,
    view: (visitor: Visitor, key: string) =>
      `${tag(visitor)}:view:${hash(`view\n${visitor.clientId}\n${key}`)}`,
    viewsPerAddress: (visitor: Visitor) => `${tag(visitor)}:views`,
    batchesPerVisitor: (visitor: Visitor) =>
      `${tag(visitor)}:visitor:${hash(`visitor\n${visitor.clientId}`)}`,
    batchesPerAddress: (visitor: Visitor) => `${tag(visitor)}:batches`,
    session: (visitor: Visitor) =>
      `${tag(visitor)}:session:${hash(`session\n${visitor.clientId}`)}`,
    /** A campaign's key, hashed: Redis holds no campaign word. */
    campaign: (campaign: string) => (campaign ? hash(`campaign\n${campaign}`) : ""),
  };
}

export function createRedisLimits(connection: RedisConnection, salt: string): RemoteLimits {
  const { client } = connection;
  client.defineCommand("darbLead", { numberOfKeys: 2, lua: LEAD });
  client.defineCommand("darbBatch", { numberOfKeys: 2, lua: BATCH });
  client.defineCommand("darbSession", { numberOfKeys: 1, lua: SESSION });
  const keys = redisKeys(salt);
  const leadArgs = [DEDUPE_WINDOW_MS, ...bucketArgs(LEADS_PER_ADDRESS)];
  const exposureArgs = [EXPOSURE_WINDOW_MS, ...bucketArgs(EXPOSURES_PER_ADDRESS)];
  const viewArgs = [VIEW_WINDOW_MS, ...bucketArgs(VIEWS_PER_ADDRESS)];
  const batchArgs = [...bucketArgs(BATCHES_PER_VISITOR), ...bucketArgs(BATCHES_PER_ADDRESS)];

  return {
    available: connection.usable,
    async lead(visitor, key) {
      const code = await connection.run((redis) =>
        redis.darbLead(keys.lead(visitor, key), keys.leadsPerAddress(visitor), ...leadArgs),
      );
      const verdict = VERDICTS[code];
      if (!verdict) throw new Error(`unexpected answer from the lead script: ${code}`);
      return verdict;
    },
    // A view's mark and its address's bucket work as a lead's do: the same script.
    async exposure(visitor, experiment) {
      const code = await connection.run((redis) =>
        redis.darbLead(
          keys.exposure(visitor, experiment),
          keys.exposuresPerAddress(visitor),
          ...exposureArgs,
        ),
      );
      const verdict = VERDICTS[code];
      if (!verdict) throw new Error(`unexpected answer from the lead script: ${code}`);
      return verdict;
    },
    // A no-JS view's mark (its session and page) and its address's bucket: the same script.
    async view(visitor, key) {
      const code = await connection.run((redis) =>
        redis.darbLead(keys.view(visitor, key), keys.viewsPerAddress(visitor), ...viewArgs),
      );
      const verdict = VERDICTS[code];
      if (!verdict) throw new Error(`unexpected answer from the lead script: ${code}`);
      return verdict;
    },
    async batch(visitor) {
      const code = await connection.run((redis) =>
        redis.darbBatch(
          keys.batchesPerVisitor(visitor),
          keys.batchesPerAddress(visitor),
          ...batchArgs,
        ),
      );
      return code === 1;
    },
    async session(visitor, campaign) {
      const id = await connection.run((redis) =>
        redis.darbSession(keys.session(visitor), keys.campaign(campaign), SESSION_TIMEOUT_MS),
      );
      if (!SESSION_ID.test(String(id))) throw new Error(`unexpected session id: ${id}`);
      return String(id);
    },
    close: connection.close,
  };
}
