// The production server (server/site.ts, what `node server-build/index.js` runs) in this
// process, on a free loopback port, so msw can stand in for GA4 on the outbound side.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import { type App, appOf } from "../../server/app";
import { startSite } from "../../server/site";
import { freshDataDir } from "./child-server";

/**
 * Node's own fetch, taken before Remix's globals and msw patch it: the tests talk to the site
 * with it, so only the site's outbound calls (to GA4) pass through msw.
 */
export const directFetch: typeof fetch = globalThis.fetch.bind(globalThis);

const root = fileURLToPath(new URL("../../", import.meta.url));
const buildPath = `${root}build/index.js`;

export async function startBuiltServer(
  env: Record<string, string>,
  /** What to do with the build's app before its settings are read (register a network). */
  { before }: { before?: (app: App) => void } = {},
) {
  if (!existsSync(buildPath))
    throw new Error("No build: run `npm run build` (npm test does) first.");
  // The build's own modules read the environment too (getConfig), as in production. The config,
  // like all the app's code the server runs, is the build's (server/app.ts), not the sources'.
  Object.assign(process.env, { NODE_ENV: "production", DATA_DIR: freshDataDir(), ...env });
  const build = (await import(pathToFileURL(buildPath).href)) as unknown as ServerBuild;
  installGlobals({ nativeFetch: build.future.v3_singleFetch });
  before?.(appOf(build));
  const lines: string[] = [];
  const site = await startSite({
    build,
    root,
    config: appOf(build).parseConfig(process.env),
    listen: { port: 0, host: "127.0.0.1" },
    log: (line) => {
      lines.push(line);
      // The analytics lines are what the leads tests read from stdout.
      process.stdout.write(`${line}\n`);
    },
    exit: () => undefined,
  });
  return {
    origin: site.origin,
    site,
    /** Every line the server logged, in order. */
    lines,
    close: () =>
      new Promise<void>((resolve) => {
        site.server.closeAllConnections();
        site.server.close(() => resolve());
      }),
  };
}
