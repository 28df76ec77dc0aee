/**
 * The app's own server as the Remix build carries it: app/entry.server.tsx exports this module as
 * `server`, so the server's modules and the app's are bundled together, once, into build/index.js
 * (docs/decisions/015-app-bundled-once.md). server-build/*.js load that build and call in here
 * (server/load-build.ts); the in-process integration tests do the same.
 */
import { broadcastDevReady, installGlobals, type ServerBuild } from "@remix-run/node";
import { runExperimentsReport as experimentsReport } from "~/experiments/report-cli.server";
import { runLeadsReport as leadsReport } from "~/leads/report-cli.server";
import type { Env, Output } from "~/leads/report-run.server";
import { bounded, logLine, writeLogLine } from "~/platform/log-line.server";
import { ConfigError, checkConfigAtStart, exitWith, parseConfig } from "~/settings.server";
import { consoleAsLogLines } from "./console-lines";
import { startSite } from "./site";

// The in-process integration tests (tests/support/server.ts) start the site with their own options.
export { registerDestination } from "~/analytics/destinations/registry.server";
export { parseConfig } from "~/settings.server";
export { startSite } from "./site";

// `npm run leads` and `npm run experiments` (server/leads-report.ts, server/experiments-report.ts),
// over the settings the composed schema reads from `env`.
export const runLeadsReport = (args: string[], env: Env, output: Output) =>
  leadsReport(args, env, parseConfig, output);
export const runExperimentsReport = (args: string[], env: Env, output: Output) =>
  experimentsReport(args, env, parseConfig, output);

/**
 * What nothing caught: one line, and the process goes on serving. Every part that can fail (the
 * disk, Redis, a destination) answers its own failures; this is the net under a bug, so that
 * one request or one timer never takes every visitor's page with it.
 */
function keepServing(log: (line: string) => void) {
  const said = (kind: string) => (error: unknown) =>
    log(
      logLine("uncaught", {
        kind,
        error: bounded(String((error as Error)?.message ?? error), 300),
        at: bounded(
          String((error as Error)?.stack ?? "")
            .split("\n")[1]
            ?.trim() ?? "",
          200,
        ),
      }),
    );
  process.on("uncaughtException", said("exception"));
  process.on("unhandledRejection", said("rejection"));
}

/**
 * `node server-build/index.js`, given the build it loaded (this very build) and the project's
 * root. Settings are checked before anything listens: a bad one ends start-up with one line and
 * exit code 1. Every line it writes is one JSON object (decision 013).
 */
export async function startServer(build: ServerBuild, root: string): Promise<void> {
  consoleAsLogLines();
  const config = await checkConfigAtStart();
  // The same fetch globals remix-serve would install for this build (Remix's own polyfills).
  installGlobals({ nativeFetch: build.future.v3_singleFetch });

  try {
    const site = await startSite({ build, config, root });
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.on(signal, () => void site.shutdown.begin(signal));
    }
    keepServing(writeLogLine);
    writeLogLine(logLine("listening", { origin: site.origin }));
    // Under `npm run dev`, Remix's compiler reloads the browser once this build is served.
    if (process.env.REMIX_DEV_ORIGIN) await broadcastDevReady(build);
  } catch (error) {
    // DATA_DIR (locked by a live server, read-only, cannot be created) says so itself.
    if (error instanceof ConfigError) exitWith(error);
    const { code, setting } = error as NodeJS.ErrnoException & { setting?: string };
    const reason = code === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${code})`;
    // The metrics' own port (server/site.ts marks its error), else the site's.
    if (setting === "METRICS_PORT") {
      exitWith(new ConfigError("METRICS_PORT", `${config.metricsPort} ${reason}`));
    }
    exitWith(new ConfigError("PORT", `${config.port} ${reason}`));
  }
}
