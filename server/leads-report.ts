/**
 * `npm run leads` (app/leads/report-cli.server.ts): the report runs from the Remix build, like
 * the server, so the ledger is read by the same code that writes it (server/load-build.ts).
 */
import { loadBuild } from "./load-build";

try {
  const { server } = await loadBuild("runLeadsReport");
  process.exitCode = await server.runLeadsReport(process.argv.slice(2), process.env, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
