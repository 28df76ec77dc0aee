/**
 * `node server-build/index.js`: the production server (npm start, the container, the tests and
 * the bench all run this). Settings are checked before anything listens: a bad one ends start-up
 * with one line and exit code 1. Every line it writes is one JSON object (decision 013).
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import { ConfigError, checkConfigAtStart, exitWith } from "~/platform/config.server";
import { logLine } from "~/platform/log-line.server";
import { consoleAsLogLines } from "./console-lines";
import { startSite } from "./site";

consoleAsLogLines();
const root = fileURLToPath(new URL("..", import.meta.url));
const config = await checkConfigAtStart();
const build = (await import(pathToFileURL(`${root}build/index.js`).href)) as unknown as ServerBuild;
// The same fetch globals remix-serve would install for this build (Remix's own polyfills).
installGlobals({ nativeFetch: build.future.v3_singleFetch });

try {
  const site = await startSite({ build, config, root });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => void site.shutdown.begin(signal));
  }
  process.stdout.write(`${logLine("listening", { origin: site.origin })}\n`);
} catch (error) {
  const { code } = error as NodeJS.ErrnoException;
  const reason = code === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${code})`;
  exitWith(new ConfigError("PORT", `${config.port} ${reason}`));
}
