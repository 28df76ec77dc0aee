/**
 * `node server-build/index.js`: the production server (npm start, the container, the tests and
 * the bench all run this). It loads the Remix build (build/index.js) and runs the app's code from
 * it, bundling none of its own (server/app.ts). Settings are checked before anything listens: a
 * bad one ends start-up with one line and exit code 1. Every line it writes is one JSON object
 * (decision 013).
 */
import { hostname } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import { type App, appOf, bindApp } from "./app";
import { consoleAsLogLines } from "./console-lines";
import { startSite } from "./site";

/**
 * The build's app, or one config_error line and exit code 1 when the build lacks what the server
 * takes from it. Written by hand: the log-line code is the app's, and it is what is missing.
 */
function appOrExit(build: ServerBuild): App {
  try {
    return appOf(build);
  } catch (error) {
    const { message } = error as Error;
    const line = {
      type: "config_error",
      time: new Date().toISOString(),
      replica: process.env.REPLICA_ID || hostname(),
      variable: "build/index.js",
      error: message,
    };
    process.stderr.write(`${JSON.stringify(line)}\n`);
    process.exit(1);
  }
}

/**
 * What nothing caught: one line, and the process goes on serving. Every part that can fail (the
 * disk, Redis, a destination) answers its own failures; this is the net under a bug, so that
 * one request or one timer never takes every visitor's page with it.
 */
function keepServing(log: (line: string) => void) {
  const said = (kind: string) => (error: unknown) =>
    log(
      app.logLine("uncaught", {
        kind,
        error: app.bounded(String((error as Error)?.message ?? error), 300),
        at: app.bounded(
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

const root = fileURLToPath(new URL("..", import.meta.url));
const build = (await import(pathToFileURL(`${root}build/index.js`).href)) as unknown as ServerBuild;
const app = bindApp(appOrExit(build));
consoleAsLogLines();
const config = await app.checkConfigAtStart();
// The same fetch globals remix-serve would install for this build (Remix's own polyfills).
installGlobals({ nativeFetch: build.future.v3_singleFetch });

try {
  const site = await startSite({ build, config, root });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => void site.shutdown.begin(signal));
  }
  keepServing(app.writeLogLine);
  app.writeLogLine(app.logLine("listening", { origin: site.origin }));
} catch (error) {
  // DATA_DIR (locked by a live server, read-only, cannot be created) says so itself.
  if (error instanceof app.ConfigError) app.exitWith(error);
  const { code, setting } = error as NodeJS.ErrnoException & { setting?: string };
  const reason = code === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${code})`;
  // The metrics' own port (server/site.ts marks its error), else the site's.
  if (setting === "METRICS_PORT") {
    app.exitWith(new app.ConfigError("METRICS_PORT", `${config.metricsPort} ${reason}`));
  }
  app.exitWith(new app.ConfigError("PORT", `${config.port} ${reason}`));
}
