/**
 * `npm run experiments` (app/experiments/report-cli.server.ts): like `npm run leads`
 * (server/leads-report.ts), it runs from the Remix build, so the ledger is read by the same code
 * that writes it (server/load-build.ts).
 */
import { loadBuild } from "./load-build";

try {
  const { server } = await loadBuild("runExperimentsReport");
  process.exitCode = await server.runExperimentsReport(process.argv.slice(2), process.env, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
