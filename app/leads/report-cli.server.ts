/**
 * `npm run leads` (server/leads-report.ts runs it from the build): leads, chats and shares by
 * campaign and Dubai day for a period (`--since 7d` by default, to now; `--since yesterday
 * --until yesterday` closes a day: report-period.server.ts), as a table or, with `--csv`, for a
 * spreadsheet. It reads the ledger file under DATA_DIR while the server writes it (nothing is
 * locked or changed), so it works in the running container too; with REDIS_URL set, it reads
 * every replica's leads from Redis instead. `npm run leads -- backup FILE` writes a consistent
 * copy of this machine's ledger, without any credential, while the server runs.
 */
import { backupLedger, readLedger } from "~/leads/ledger/open-ledger.server";
import { createSharedLedger } from "~/leads/ledger/shared-ledger.server";
import { leadReport, reportCsv, reportText } from "~/leads/report.server";
import {
  type Env,
  type Output,
  type ParseSettings,
  readFrom,
  startReport,
  withRedis,
} from "~/leads/report-run.server";
import type { Config } from "~/platform/config.server";

const USAGE = [
  "usage: npm run leads [-- --since 7d|yesterday|2026-11-01] [--until yesterday|2026-11-01] [--csv]",
  "       (Dubai days; also today, 30d, 24h, 90m, 2026-11-01T10:00+04:00)",
  "       npm run leads -- backup FILE",
  "       npm run leads -- stage DRB-XXXXX qualified|installed|lost [--value AED] [--reason TEXT]",
].join("\n");

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

/** `backup FILE`: this machine's ledger, copied whole and consistent, to FILE. */
function runBackup(args: string[], env: Env, parse: ParseSettings, output: Output) {
  const [file, ...rest] = args;
  if (!file || rest.length > 0 || file.startsWith("-")) {
    output.err(`backup takes one file to write\n${USAGE}\n`);
    return 2;
  }
  const run = startReport([], env, parse, output, { usage: USAGE });
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

/**
 * `stage REF STAGE [--value AED] [--reason TEXT]`: tells the running server, as the team's back
 * end would (POST /api/leads/stage on this machine's PORT, with LEADS_API_TOKEN): the ledger has
 * one writer, the server.
 */
async function runStage(args: string[], env: Record<string, string | undefined>, output: Output) {
  const [ref, stage, ...rest] = args;
  const options: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if ((flag !== "--value" && flag !== "--reason") || value === undefined) {
      output.err(`unknown argument ${JSON.stringify(flag)}\n${USAGE}\n`);
      return 2;
    }
    options[flag.slice(2)] = value;
  }
  if (!ref || !stage) {
    output.err(`stage takes a reference and a stage\n${USAGE}\n`);
    return 2;
  }
  const value = options.value === undefined ? undefined : Number(options.value);
  if (value !== undefined && !Number.isFinite(value)) {
    output.err(`--value must be an amount in AED\n${USAGE}\n`);
    return 2;
  }
  const token = env.LEADS_API_TOKEN?.trim();
  if (!token) {
    output.err("LEADS_API_TOKEN is not set: the server takes stages only with it\n");
    return 2;
  }
  const port = env.PORT?.trim() || "3000";
  const host = env.HOST?.trim() || "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}/api/leads/stage`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        ref,
        stage,
        ...(value !== undefined ? { value } : {}),
        ...(options.reason ? { reason: options.reason } : {}),
      }),
    });
  } catch {
    output.err(`the server at ${url} did not answer: is it running?\n`);
    return 1;
  }
  const said = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    output.err(`${response.status}: ${String(said.error ?? "refused")}\n`);
    return 1;
  }
  output.out(
    said.recorded
      ? `${said.ref} is ${said.stage}: recorded, and sent to every destination\n`
      : `${said.ref} was ${said.stage} already: nothing changed\n`,
  );
  return 0;
}

/** The report for `args`; resolves with the exit code (2 for a usage or settings error). */
export async function runLeadsReport(
  args: string[],
  env: Env,
  parse: ParseSettings,
  output: Output,
): Promise<number> {
  if (args[0] === "backup") return runBackup(args.slice(1), env, parse, output);
  if (args[0] === "stage") return runStage(args.slice(1), env, output);
  const run = startReport(args, env, parse, output, { usage: USAGE, since: "7d" });
  if (typeof run === "number") return run;
  const { leads, chats } = await ledgerOf(run.config);
  const report = leadReport(leads, chats, run.period, run.now);
  output.out(run.csv ? reportCsv(report) : `${reportText(report, readFrom(run.config))}\n`);
  return 0;
}
