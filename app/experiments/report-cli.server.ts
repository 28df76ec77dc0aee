/**
 * `npm run experiments` (server/experiments-report.ts runs it from the build): the experiments
 * report (report.server.ts) for the running experiment, or with `--all` every one in
 * EXPERIMENTS_FILE, over its whole history or the Dubai days `--since` and `--until` name
 * (`yesterday`, `7d`, a date: leads/report-period.server.ts), as tables or, with `--csv`, for a
 * spreadsheet. Visitors are counted per Dubai day, so a period is read in whole days. Like `npm
 * run leads`, it reads the ledger under DATA_DIR while the server writes it; with REDIS_URL set,
 * every replica's leads and exposures from Redis.
 */
import {
  type ExperimentData,
  experimentsCsv,
  experimentsReport,
  experimentsText,
} from "~/experiments/report.server";
import { readLedger } from "~/leads/ledger/open-ledger.server";
import { createSharedLedger } from "~/leads/ledger/shared-ledger.server";
import { type Period, periodText, wholeDays } from "~/leads/report-period.server";
import {
  type Env,
  type Output,
  type ParseSettings,
  readFrom,
  startReport,
  withRedis,
} from "~/leads/report-run.server";
import { dubaiDay } from "~/leads/visitor.server";
import type { Config } from "~/platform/config.server";

const USAGE = [
  "usage: npm run experiments [-- --since 7d|yesterday|2026-11-01] [--until yesterday|2026-11-01] [--all] [--csv]",
  "       (whole Dubai days; also today, 30d, 24h)",
].join("\n");

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

/**
 * The data up to the period's end: the report itself reads where a period starts (in Dubai days),
 * and the visitors' counts are per Dubai day, so the last day counted is the one `to` closes.
 */
function until(data: ExperimentData, { to }: Period): ExperimentData {
  if (to === null) return data;
  const lastDay = dubaiDay(new Date(to - 1));
  return {
    ...data,
    exposures: data.exposures.filter((exposure) => exposure.day <= lastDay),
    leads: data.leads.filter((lead) => lead.at < to),
  };
}

/** The report for `args`; resolves with the exit code (2 for a usage or settings error). */
export async function runExperimentsReport(
  args: string[],
  env: Env,
  parse: ParseSettings,
  { out, err }: Output,
): Promise<number> {
  const run = startReport(args, env, parse, { out, err }, { usage: USAGE, flags: ["--all"] });
  if (typeof run === "number") return run;
  const { config, csv } = run;
  const period = wholeDays(run.period);
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
  const data = until(await dataOf(config), period);
  const reports = experimentsReport(chosen, data, { all: true, since: period.from });
  const heading = `Visitors and leads ${periodText(period, run.now)}, ${readFrom(config)}`;
  out(csv ? experimentsCsv(reports) : `${heading}\n\n${experimentsText(reports)}\n`);
  return 0;
}
