// The production server (server/site.ts, what `node server-build/index.js` runs) in this
// process, on a free loopback port, so msw can stand in for GA4 on the outbound side. Taken from
// the build as production takes it: build/index.js carries the server with the app.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { installGlobals } from "@remix-run/node";
import { type BuiltServer, loadBuild } from "../../server/load-build";
import { freshDataDir } from "./child-server";

/**
 * Node's own fetch, taken before Remix's globals and msw patch it: the tests talk to the site
 * with it, so only the site's outbound calls (to GA4) pass through msw.
 */
export const directFetch: typeof fetch = globalThis.fetch.bind(globalThis);

const root = fileURLToPath(new URL("../../", import.meta.url));

export async function startBuiltServer(
  env: Record<string, string>,
  /** What to do with the build's app before its settings are read (register a network). */
  { before }: { before?: (server: BuiltServer) => void } = {},
) {
  if (!existsSync(`${root}build/index.js`))
    throw new Error("No build: run `npm run build` (npm test does) first.");
  // The build's own modules read the environment too (getConfig), as in production. The config,
  // like all the code the server runs, is the build's, not the sources'.
  Object.assign(process.env, { NODE_ENV: "production", DATA_DIR: freshDataDir(), ...env });
  const { build, server } = await loadBuild("startSite");
  installGlobals({ nativeFetch: build.future.v3_singleFetch });
  before?.(server);
  const lines: string[] = [];
  const site = await server.startSite({
    build,
    root,
    config: server.parseConfig(process.env),
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
