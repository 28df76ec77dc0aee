/**
 * `npm run experiments` (server/experiments-report.ts runs it from the build): the experiments
 * report (report.server.ts) for the running experiment, or with `--all` every one in
 * EXPERIMENTS_FILE, over its whole history or `--since` a time (`7d`, `24h`, a date), as tables
 * or, with `--csv`, for a spreadsheet. Like `npm run leads`, it reads the ledger under DATA_DIR
 * while the server writes it; with REDIS_URL set, every replica's leads and exposures from Redis.
 */
import {
  type ExperimentData,
  experimentsCsv,
  experimentsReport,
  experimentsText,
} from "~/experiments/report.server";
import { readLedger } from "~/leads/ledger/open-ledger.server";
import { createSharedLedger } from "~/leads/ledger/shared-ledger.server";
import { createRedisConnection } from "~/leads/redis-connection.server";
import { parseSince } from "~/leads/report.server";
import { type Config, ConfigError, parseConfig } from "~/platform/config.server";

const USAGE = "usage: npm run experiments [-- --since 7d|24h|2026-11-01] [--all] [--csv]";

/** Leads, chats and exposures: from Redis when replicas share it, else this machine's ledger. */
async function dataOf(config: Config): Promise<ExperimentData> {
  if (!config.redisUrl) {
    const ledger = readLedger(config.dataDir);
    return { exposures: ledger.exposures(), leads: ledger.leads(), chats: ledger.chats() };
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
    const shared = createSharedLedger(connection, config.leadRetentionDays);
    const { leads, chats } = await shared.all();
    return { exposures: await shared.exposures(), leads, chats };
  } finally {
    connection.close();
  }
}

type Output = { out: (text: string) => void; err: (text: string) => void };

/** The report for `args`; resolves with the exit code (2 for a usage or settings error). */
export async function runExperimentsReport(
  args: string[],
  env: Record<string, string | undefined>,
  { out, err }: Output,
): Promise<number> {
  let since: string | null = null;
  let csv = false;
  let all = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--csv") csv = true;
    else if (arg === "--all") all = true;
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
  const from = since === null ? null : parseSince(since, Date.now());
  if (from === null && since !== null) {
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
  const chosen = config.experiments.filter((e) => all || e.status === "running");
  if (chosen.length === 0) {
    out(
      config.experiments.length === 0
        ? "No experiment: EXPERIMENTS_FILE is not set, or lists none (docs/experiments.md).\n"
        : "No experiment is running; `npm run experiments -- --all` reports the stopped ones.\n",
    );
    return 0;
  }
  const reports = experimentsReport(chosen, await dataOf(config), { all: true, since: from });
  out(csv ? experimentsCsv(reports) : `${experimentsText(reports)}\n`);
  return 0;
}
