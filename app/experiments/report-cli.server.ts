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
import { type Output, startReport, withRedis } from "~/leads/report-run.server";
import type { Config } from "~/platform/config.server";

const USAGE = "usage: npm run experiments [-- --since 7d|24h|2026-11-01] [--all] [--csv]";

/** Leads, chats and exposures: from Redis when replicas share it, else this machine's ledger. */
async function dataOf(config: Config): Promise<ExperimentData> {
  if (!config.redisUrl) {
    const ledger = readLedger(config.dataDir);
    return { exposures: ledger.exposures(), leads: ledger.leads(), chats: ledger.chats() };
  }
  return withRedis(config.redisUrl, async (connection) => {
    const shared = createSharedLedger(connection, config.leadRetentionDays);
    const { leads, chats } = await shared.all();
    return { exposures: await shared.exposures(), leads, chats };
  });
}

/** The report for `args`; resolves with the exit code (2 for a usage or settings error). */
export async function runExperimentsReport(
  args: string[],
  env: Record<string, string | undefined>,
  { out, err }: Output,
): Promise<number> {
  const run = startReport(args, env, { out, err }, { usage: USAGE, flags: ["--all"] });
  if (typeof run === "number") return run;
  const { config, from, csv } = run;
  const all = run.flags.has("--all");
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
