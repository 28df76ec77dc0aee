/**
 * `npm run leads` (server/leads-report.ts runs it from the build): leads and chats by campaign
 * for a period (`--since 7d` by default; `24h`, `30d` or a date), as a table or, with `--csv`,
 * for a spreadsheet. It reads the ledger file under DATA_DIR while the server writes it (nothing
 * is locked or changed), so it works in the running container too; with REDIS_URL set, it reads
 * every replica's leads from Redis instead.
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

type Output = { out: (text: string) => void; err: (text: string) => void };

/** The report for `args`; resolves with the exit code (2 for a usage or settings error). */
export async function runLeadsReport(
  args: string[],
  env: Record<string, string | undefined>,
  { out, err }: Output,
): Promise<number> {
  let since = "7d";
  let csv = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--csv") csv = true;
    else if (arg === "--since" && args[i + 1] !== undefined) since = args[++i] as string;
    else if (arg?.startsWith("--since=")) since = arg.slice("--since=".length);
    else if (arg === "--help" || arg === "-h") {
      out(`${USAGE}\n`);
      return 0;
    } else {
      err(`unknown argument ${JSON.stringify(arg)}\n${USAGE}\n`);
      return 2;
    }
  }
  const from = parseSince(since, Date.now());
  if (from === null) {
    err(`--since must be like 7d, 24h, 90m or 2026-11-01\n${USAGE}\n`);
    return 2;
  }
  let config: Config;
  try {
    config = parseConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err(`${error.message}\n`);
    return 2;
  }
  const { leads, chats } = await ledgerOf(config);
  const report = leadReport(leads, chats, from);
  out(csv ? reportCsv(report) : `${reportText(report)}\n`);
  return 0;
}
