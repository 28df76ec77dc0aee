/**
 * The leads and chats every replica can see, in Redis, when REDIS_URL is set
 * (docs/decisions/016-lead-ledger.md). Each replica keeps its own ledger on disk and copies its
 * leads and chats here through its outbox, as to any destination, so a Redis outage delays the
 * copy and loses nothing. The webhook, on whichever replica Meta reaches, finds a lead by its
 * chat reference here and claims each message id once; `npm run leads` reads every replica's
 * leads from here. Keys expire with LEAD_RETENTION_DAYS.
 */

import { PostError } from "~/analytics/http-post.server";
import type { Post } from "~/analytics/outbox.server";
import type { ChatRecord, LeadRecord, NewCall } from "~/leads/ledger/ledger.server";
import type { RedisConnection } from "~/leads/redis-connection.server";
import { KEY_PREFIX } from "~/leads/redis-limits.server";

const DAY_MS = 86_400_000;
/** Meta sends a delivery again for days at most: a message id is remembered for a week. */
const CHAT_CLAIM_MS = 7 * DAY_MS;

export const sharedKeys = {
  lead: (id: string) => `${KEY_PREFIX}:ledger:lead:${id}`,
  ref: (ref: string) => `${KEY_PREFIX}:ledger:ref:${ref}`,
  chat: (messageId: string) => `${KEY_PREFIX}:ledger:chat:${messageId}`,
  claim: (messageId: string) => `${KEY_PREFIX}:ledger:claim:${messageId}`,
  leadPattern: `${KEY_PREFIX}:ledger:lead:*`,
  chatPattern: `${KEY_PREFIX}:ledger:chat:*`,
};

export const SHARED_URL = { lead: "redis:lead", chat: "redis:chat" } as const;

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

export type SharedLedger = {
  /** The outbox's "post" for Redis: writes a copy, 204 when Redis has it. */
  post: Post;
  /** A lead another replica counted, by its chat reference; undefined when none or unknown. */
  leadByRef: (ref: string) => Promise<LeadRecord | undefined>;
  /** True the first time any replica claims the message id; null when Redis cannot say. */
  claimChat: (messageId: string) => Promise<boolean | null>;
  /** Every lead and chat (for the report). */
  all: () => Promise<{ leads: LeadRecord[]; chats: ChatRecord[] }>;
};

export function createSharedLedger(
  connection: RedisConnection,
  retentionDays: number,
  now: () => number = Date.now,
): SharedLedger {
  const retentionMs = retentionDays * DAY_MS;
  const ttl = (at: number) => Math.max(1000, at + retentionMs - now());

  async function scanValues(pattern: string): Promise<string[]> {
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

  return {
    async post(url, body) {
      if (!connection.usable()) throw new PostError("Redis is down", false);
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

    async claimChat(messageId) {
      if (!connection.usable()) return null;
      try {
        const set = await connection.run((redis) =>
          redis.set(sharedKeys.claim(messageId), "1", "PX", CHAT_CLAIM_MS, "NX"),
        );
        return set === "OK";
      } catch {
        return null;
      }
    },

    async all() {
      const leads = (await scanValues(sharedKeys.leadPattern)).map(
        (v) => JSON.parse(v) as LeadRecord,
      );
      const chats = (await scanValues(sharedKeys.chatPattern)).map(
        (v) => JSON.parse(v) as ChatRecord,
      );
      return { leads, chats };
    },
  };
}
