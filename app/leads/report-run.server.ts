/**
 * What `npm run leads` and `npm run experiments` share: their arguments (`--since` and `--until`
 * in Dubai days, report-period.server.ts; `--csv`, and the flags a report adds), the settings
 * read once, where the data is read from, and a short-lived Redis connection for reading every
 * replica's data. Each report keeps only what it reports.
 */
import { createRedisConnection, type RedisConnection } from "~/leads/redis-connection.server";
import { type Period, parsePeriod } from "~/leads/report-period.server";
import type { Config } from "~/platform/config.server";
import { ConfigError } from "~/platform/setting-readers.server";

export type Output = { out: (text: string) => void; err: (text: string) => void };

export type Env = Record<string, string | undefined>;

/** Reads the settings from the environment: the composed schema's parseConfig, given by the caller. */
export type ParseSettings = (env: Env) => Config;

export type ReportRun = {
  config: Config;
  /** What the report covers: from null is the whole history, to null is up to now. */
  period: Period;
  /** When the report was asked for (ms): what `today` and `7d` were read at. */
  now: number;
  csv: boolean;
  /** The report's own flags that were given. */
  flags: Set<string>;
};

/**
 * The arguments and settings of a report, or the exit code when there is nothing to run: 0 for
 * `--help`, 2 for a usage or settings error (said in one line, with the usage).
 */
export function startReport(
  args: string[],
  env: Env,
  parse: ParseSettings,
  { out, err }: Output,
  {
    usage,
    since: defaultSince = null,
    flags: known = [],
  }: {
    usage: string;
    since?: string | null;
    flags?: string[];
  },
): ReportRun | number {
  let since = defaultSince;
  let until: string | null = null;
  let csv = false;
  const flags = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--csv") csv = true;
    else if (known.includes(arg)) flags.add(arg);
    else if (arg === "--since" && args[i + 1] !== undefined) since = args[++i] as string;
    else if (arg.startsWith("--since=")) since = arg.slice("--since=".length);
    else if (arg === "--until" && args[i + 1] !== undefined) until = args[++i] as string;
    else if (arg.startsWith("--until=")) until = arg.slice("--until=".length);
    else if (arg === "--help" || arg === "-h") {
      out(`${usage}\n`);
      return 0;
    } else {
      err(`unknown argument ${JSON.stringify(arg)}\n${usage}\n`);
      return 2;
    }
  }
  const now = Date.now();
  const period = parsePeriod(since, until, now);
  if (typeof period === "string") {
    err(`${period}\n${usage}\n`);
    return 2;
  }
  try {
    return { config: parse(env), period, now, csv, flags };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err(`${error.message}\n`);
    return 2;
  }
}

/** Where a report's data comes from, as its heading says it. */
export function readFrom(config: Config): string {
  return config.redisUrl
    ? "read from Redis (every replica)"
    : `read from the ledger at ${config.dataDir}`;
}

/** Runs `read` on a connection to `url` that answered within 5 s, then closes it. */
export async function withRedis<T>(
  url: string,
  read: (connection: RedisConnection) => Promise<T>,
): Promise<T> {
  const connection = createRedisConnection(url, { log: () => {}, commandTimeoutMs: 5000 });
  try {
    await new Promise<void>((resolve, reject) => {
      connection.client.once("ready", () => resolve());
      setTimeout(() => reject(new Error("Redis did not answer within 5 s")), 5000).unref();
    });
    return await read(connection);
  } finally {
    connection.close();
  }
}
