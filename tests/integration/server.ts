// Serves the production build in this process, the way remix-serve does (express + Remix's
// adapter, Remix's fetch globals), so msw can stand in for GA4 on the outbound side.
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals } from "@remix-run/node";
import express from "express";

/**
 * Node's own fetch, taken before Remix's globals and msw patch it: the tests talk to the site
 * with it, so only the site's outbound calls (to GA4) pass through msw.
 */
export const directFetch: typeof fetch = globalThis.fetch.bind(globalThis);

const buildPath = fileURLToPath(new URL("../../build/index.js", import.meta.url));

export async function startBuiltServer(env: Record<string, string>) {
  if (!existsSync(buildPath))
    throw new Error("No build: run `npm run build` (npm test does) first.");
  Object.assign(process.env, { NODE_ENV: "production", ...env });
  installGlobals();
  const build = await import(pathToFileURL(buildPath).href);
  const app = express();
  app.disable("x-powered-by");
  app.all("*", createRequestHandler({ build, mode: "production" }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
