/**
 * One short look at REDIS_URL's Redis at start: does it have the database the URL names? A
 * database index past the server's `databases` makes the connection's SELECT fail, and ioredis
 * carries on in database 0, where every shared key would land. Nothing here waits long or
 * retries: Redis down at start is the running connection's business
 * (app/leads/redis-connection.server.ts), never start-up's.
 */
import { requiredOnUse } from "~/platform/required-on-use.server";

const ioredis = requiredOnUse<typeof import("ioredis")>("ioredis");

export type RedisDatabaseAnswer =
  /** Database 0 (always there), or Redis took the SELECT. */
  | { status: "ok" }
  /** Redis refused the index; `databases` is how many it has, null when it would not say. */
  | { status: "out of range"; databases: number | null }
  /** No answer in time, or another refusal (a password, a cluster): not this check's to judge. */
  | { status: "unknown" };

/** The database number a redis:// URL names, 0 when none. */
export function databaseOf(url: string): number {
  const path = new URL(url).pathname.replace(/^\//, "");
  return path === "" ? 0 : Number(path);
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export async function checkRedisDatabase(
  url: string,
  timeoutMs: number,
): Promise<RedisDatabaseAnswer> {
  const db = databaseOf(url);
  if (db === 0) return { status: "ok" };
  // The URL without its database: the SELECT below is this check's own, so its answer is read.
  const bare = new URL(url);
  bare.pathname = "";
  const client = new (ioredis().Redis)(bare.href, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableReadyCheck: false,
    connectionName: "darb-site-start",
  });
  // A refused connection is reported by connect() below; without a listener it would be thrown.
  client.on("error", () => {});
  try {
    return await within(
      (async (): Promise<RedisDatabaseAnswer> => {
        await client.connect();
        try {
          await client.select(db);
          return { status: "ok" };
        } catch (error) {
          if (!/DB index is out of range/i.test(String((error as Error).message))) {
            return { status: "unknown" };
          }
        }
        // CONFIG may be refused (an ACL, a managed Redis): then the count is not known.
        const reply = await client.config("GET", "databases").catch(() => null);
        const count = Number((reply as string[] | null)?.[1]);
        return {
          status: "out of range",
          databases: Number.isInteger(count) && count > 0 ? count : null,
        };
      })(),
      timeoutMs,
    );
  } catch {
    return { status: "unknown" };
  } finally {
    client.disconnect();
  }
}
