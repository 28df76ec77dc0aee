/**
 * The composition root: builds what lives as long as the process, the lead ledger (on disk under
 * DATA_DIR), where events go (the destinations the settings turn on, or stdout), and what each
 * visitor and address may count for, in memory or, with REDIS_URL, in Redis shared by every
 * replica. The server creates one set at start and hands it to every request (site.ts, through
 * the load context), and flushes and closes it on shutdown. Only this file knows every feature.
 */
import { createSink, type Sink } from "~/analytics/sink.server";
import { startExposureCopy } from "~/leads/ledger/exposure-copy.server";
import { createLedger, type Ledger } from "~/leads/ledger/ledger.server";
import { openLedger } from "~/leads/ledger/open-ledger.server";
import { createSharedLedger, type SharedLedger } from "~/leads/ledger/shared-ledger.server";
import { createRedisConnection } from "~/leads/redis-connection.server";
import { createRedisLimits } from "~/leads/redis-limits.server";
import { createSharedLimits, type SharedLimits } from "~/leads/shared-limits.server";
import type { Services } from "~/platform/request-context.server";
import type { Config } from "~/settings.server";

declare module "~/platform/request-context.server" {
  /** What createServices builds: the request context's `services`. */
  interface Services {
    ledger: Ledger;
    /** With REDIS_URL: the leads and chats every replica sees. */
    shared: SharedLedger | null;
    analytics: Sink;
    limits: SharedLimits;
    /** The operator's counters (the stats line): the sink's and the limits'. */
    counters: () => Record<string, number>;
    /** Ends what holds a connection open (Redis), at shutdown. */
    close: () => void;
    /** Writes one log line (a JSON object) where the process's log goes. */
    log: (line: string) => void;
  }
}

export type { Services };

export function createServices(
  config: Partial<
    Pick<Config, "destinations" | "redisUrl" | "analyticsSalt" | "dataDir" | "leadRetentionDays">
  >,
  options: { writeLine?: (line: string) => void } = {},
): Services {
  const log = options.writeLine ?? ((line: string) => process.stdout.write(`${line}\n`));
  const retentionDays = config.leadRetentionDays ?? 90;
  // Without a data directory (unit tests), the ledger lives in memory.
  const ledger = config.dataDir
    ? openLedger(config.dataDir, retentionDays, log)
    : createLedger({ retentionDays, log });
  // parseConfig takes REDIS_URL only with ANALYTICS_SALT: every replica hashes alike.
  const redis =
    config.redisUrl && config.analyticsSalt
      ? createRedisConnection(config.redisUrl, { log })
      : null;
  const shared = redis ? createSharedLedger(redis, retentionDays) : null;
  const analytics = createSink({
    ledger,
    shared: shared && { ledger: shared, retentionDays },
    destinations: config.destinations ?? [],
    ...options,
  });
  // Replicas: each one's experiment exposures reach Redis in batches, the last one at shutdown.
  const exposureCopy = shared
    ? startExposureCopy({ ledger, record: (calls) => analytics.recordCalls(calls) })
    : null;
  const flush = analytics.flush;
  if (exposureCopy) {
    analytics.flush = (deadlineMs) => {
      exposureCopy.copy();
      return flush(deadlineMs);
    };
  }
  const remote =
    redis && config.analyticsSalt ? createRedisLimits(redis, config.analyticsSalt) : null;
  const limits = createSharedLimits(remote);
  return {
    ledger,
    shared,
    analytics,
    limits,
    counters: () => ({ ...analytics.stats(), ...limits.stats() }),
    close: () => {
      exposureCopy?.stop();
      limits.close();
      ledger.close();
    },
    log,
  };
}
