/**
 * `npm run leads` (server/leads-report.ts runs it from the build): leads and chats by campaign
 * for a period (`--since 7d` by default; `24h`, `30d` or a date), as a table or, with `--csv`,
 * for a spreadsheet. It reads the ledger file under DATA_DIR while the server writes it (nothing
 * is locked or changed), so it works in the running container too; with REDIS_URL set, it reads
 * every replica's leads from Redis instead. `npm run leads -- backup FILE` writes a consistent
 * copy of this machine's ledger, without any credential, while the server runs.
 */
import { backupLedger, readLedger } from "~/leads/ledger/open-ledger.server";
import { createSharedLedger } from "~/leads/ledger/shared-ledger.server";
import { leadReport, reportCsv, reportText } from "~/leads/report.server";
import { type Output, startReport, withRedis } from "~/leads/report-run.server";
import type { Config } from "~/platform/config.server";

const USAGE =
  "usage: npm run leads [-- --since 7d|24h|2026-11-01] [--csv]\n       npm run leads -- backup FILE";

/** Every lead and chat: from Redis when replicas share it, else from this machine's ledger. */
async function ledgerOf(config: Config) {
  if (!config.redisUrl) {
    const ledger = readLedger(config.dataDir);
    return { leads: ledger.leads(), chats: ledger.chats() };
  }
  return withRedis(config.redisUrl, (connection) =>
    createSharedLedger(connection, config.leadRetentionDays).all(),
  );
}

/** The report for `args`; resolves with the exit code (2 for a usage or settings error). */
/** `backup FILE`: this machine's ledger, copied whole and consistent, to FILE. */
function runBackup(args: string[], env: Record<string, string | undefined>, output: Output) {
  const [file, ...rest] = args;
  if (!file || rest.length > 0 || file.startsWith("-")) {
    output.err(`backup takes one file to write\n${USAGE}\n`);
    return 2;
  }
  const run = startReport([], env, output, { usage: USAGE });
  if (typeof run === "number") return run;
  try {
    const copied = backupLedger(run.config.dataDir, file);
    output.out(
      `${copied.leads} leads, ${copied.chats} chats and ${copied.calls} calls still owed copied to ${file} (${copied.bytes} bytes)\n`,
    );
    return 0;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    output.err(`could not write ${file}: ${code ?? message}\n`);
    return 1;
  }
}

export async function runLeadsReport(
  args: string[],
  env: Record<string, string | undefined>,
  output: Output,
): Promise<number> {
  if (args[0] === "backup") return runBackup(args.slice(1), env, output);
  const run = startReport(args, env, output, { usage: USAGE, since: "7d" });
  if (typeof run === "number") return run;
  const { leads, chats } = await ledgerOf(run.config);
  const report = leadReport(leads, chats, run.from ?? 0);
  output.out(run.csv ? reportCsv(report) : `${reportText(report)}\n`);
  return 0;
}
