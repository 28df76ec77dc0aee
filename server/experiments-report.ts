/**
 * `npm run experiments` (app/experiments/report-cli.server.ts): like `npm run leads`
 * (server/leads-report.ts), it runs from the Remix build, so the ledger is read by the same code
 * that writes it (server/app.ts).
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { appOf } from "./app";

const root = fileURLToPath(new URL("..", import.meta.url));
try {
  const build = (await import(pathToFileURL(`${root}build/index.js`).href)) as ServerBuild;
  process.exitCode = await appOf(build).runExperimentsReport(process.argv.slice(2), process.env, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
