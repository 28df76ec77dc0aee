/**
 * What lives as long as the process: the lead ledger (on disk under DATA_DIR), where events go
 * (GA4 or stdout, and Meta when opted in), and what each visitor and address may count for, in memory or, with REDIS_URL, in Redis
 * shared by every replica. The app's own server creates one set at start and hands it to every
 * request (server/site.ts, through the load context), and flushes and closes it on shutdown.
 */
import { createSink, type Sink } from "~/analytics/sink.server";
import { createLedger, type Ledger } from "~/leads/ledger/ledger.server";
import { openLedger } from "~/leads/ledger/open-ledger.server";
import { createRedisConnection } from "~/leads/redis-connection.server";
import { createRedisLimits } from "~/leads/redis-limits.server";
import { createSharedLimits, type SharedLimits } from "~/leads/shared-limits.server";
import type { Config } from "~/platform/config.server";

export type Services = {
  ledger: Ledger;
  analytics: Sink;
  limits: SharedLimits;
  /** The operator's counters (the stats line): the sink's and the limits'. */
  counters: () => Record<string, number>;
  /** Ends what holds a connection open (Redis), at shutdown. */
  close: () => void;
  /** Writes one log line (a JSON object) where the process's log goes. */
  log: (line: string) => void;
};

export function createServices(
  config: Pick<Config, "ga" | "gaEndpoint"> &
    Partial<Pick<Config, "meta" | "redisUrl" | "analyticsSalt" | "dataDir" | "leadRetentionDays">>,
  options: { writeLine?: (line: string) => void } = {},
): Services {
  // Without a data directory (unit tests), the ledger lives in memory.
  const ledger = config.dataDir
    ? openLedger(config.dataDir, config.leadRetentionDays ?? 90)
    : createLedger({ retentionDays: config.leadRetentionDays });
  const analytics = createSink({
    ledger,
    ga: config.ga,
    endpoint: config.gaEndpoint,
    meta: config.meta ?? null,
    ...options,
  });
  const log = options.writeLine ?? ((line: string) => process.stdout.write(`${line}\n`));
  // parseConfig takes REDIS_URL only with ANALYTICS_SALT: every replica hashes alike.
  const remote =
    config.redisUrl && config.analyticsSalt
      ? createRedisLimits(createRedisConnection(config.redisUrl, { log }), config.analyticsSalt)
      : null;
  const limits = createSharedLimits(remote);
  return {
    ledger,
    analytics,
    limits,
    counters: () => ({ ...analytics.stats(), ...limits.stats() }),
    close: () => {
      limits.close();
      ledger.close();
    },
    log,
  };
}
