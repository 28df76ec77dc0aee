/**
 * What server-build/*.js share: the Remix build beside them, build/index.js, which carries the
 * server with the app (server/main.ts, exported by app/entry.server.tsx as `server`), so both are
 * bundled once (docs/decisions/015-app-bundled-once.md). These entries import it once and hold
 * nothing else: a missing build, or one without what they call (a partial deploy, a build from
 * another version), is an Error naming build/index.js, not a failure on the first request.
 */
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import type * as Server from "./main";

export type BuiltServer = typeof Server;

/** The project's root: server-build/ and build/ sit side by side in it. */
export const root = fileURLToPath(new URL("..", import.meta.url));

const FILE = "build/index.js";

export async function loadBuild(
  needs: keyof BuiltServer,
): Promise<{ build: ServerBuild; server: BuiltServer }> {
  const path = `${root}${FILE}`;
  if (!existsSync(path)) throw new Error(`${FILE} is missing: build it with \`npm run build\``);
  const build = (await import(pathToFileURL(path).href)) as ServerBuild;
  const server = (build.entry?.module as { server?: Partial<BuiltServer> } | undefined)?.server;
  if (!server) {
    throw new Error(
      `${FILE} does not carry the server (server in app/entry.server.tsx): build again with \`npm run build\``,
    );
  }
  if (typeof server[needs] !== "function") {
    throw new Error(
      `${FILE} lacks server.${needs}, which server-build/ calls: build both together with \`npm run build\``,
    );
  }
  return { build, server: server as BuiltServer };
}

/**
 * One config_error line naming build/index.js, and exit code 1. Written by hand: the log-line
 * code is in the build, and the build is what failed.
 */
export function exitWithBuildError(error: unknown): never {
  const line = {
    type: "config_error",
    time: new Date().toISOString(),
    replica: process.env.REPLICA_ID || hostname(),
    variable: FILE,
    error: (error as Error).message,
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
  process.exit(1);
}
