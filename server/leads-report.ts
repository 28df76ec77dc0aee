/**
 * `npm run leads`: leads and chats by campaign from the ledger under DATA_DIR, for a period
 * (`--since 7d` by default; `24h`, `30d` or a date), as a table or, with `--csv`, for a
 * spreadsheet. Reads the ledger file while the server writes it (nothing is locked or changed),
 * so it also works in the running container: `docker compose exec site-1 npm run leads`. With
 * REDIS_URL set, it reads every replica's leads from Redis instead.
 */

import { readLedger } from "~/leads/ledger/open-ledger.server";
import { createSharedLedger } from "~/leads/ledger/shared-ledger.server";
import { createRedisConnection } from "~/leads/redis-connection.server";
import { leadReport, parseSince, reportCsv, reportText } from "~/leads/report.server";
import { type Config, ConfigError, parseConfig } from "~/platform/config.server";

const USAGE = "usage: npm run leads [-- --since 7d|24h|2026-11-01] [--csv]";

/** Every lead and chat: from Redis when replicas share it, else from this machine's ledger. */
async function ledgerOf(config: Config) {
  if (!config.redisUrl) {
    const ledger = readLedger(config.dataDir);
    return { leads: ledger.leads(), chats: ledger.chats() };
  }
  const connection = createRedisConnection(config.redisUrl, {
    log: () => {},
    commandTimeoutMs: 5000,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      connection.client.once("ready", () => resolve());
      setTimeout(() => reject(new Error("Redis did not answer within 5 s")), 5000).unref();
    });
    return await createSharedLedger(connection, config.leadRetentionDays).all();
  } finally {
    connection.close();
  }
}

async function main(args: string[]): Promise<number> {
  let since = "7d";
  let csv = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--csv") csv = true;
    else if (arg === "--since" && args[i + 1] !== undefined) since = args[++i] as string;
    else if (arg?.startsWith("--since=")) since = arg.slice("--since=".length);
    else if (arg === "--help" || arg === "-h") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    } else {
      process.stderr.write(`unknown argument ${JSON.stringify(arg)}\n${USAGE}\n`);
      return 2;
    }
  }
  const from = parseSince(since, Date.now());
  if (from === null) {
    process.stderr.write(`--since must be like 7d, 24h, 90m or 2026-11-01\n${USAGE}\n`);
    return 2;
  }
  let config: Config;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  const { leads, chats } = await ledgerOf(config);
  const report = leadReport(leads, chats, from);
  process.stdout.write(csv ? reportCsv(report) : `${reportText(report)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
