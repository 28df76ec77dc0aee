/**
 * The app's code, as the server runs it: taken from the Remix build it serves, never bundled
 * into server-build/index.js a second time (docs/decisions/015-app-bundled-once.md).
 * app/entry.server.tsx exports what the server needs as `serverApi`
 * (app/platform/server-api.server.ts), so each app module, and its state (getConfig's cache,
 * the services), exists once in the process.
 *
 * server/*.ts import only types from "~/" (scripts/build-server.mjs fails the build on a value)
 * and the app's functions from here, which call the app bound by `bindApp`: server/index.ts and
 * startSite bind the build's, the unit tests the TypeScript sources (tests/support/unit-setup.ts).
 */
import type { ServerBuild } from "@remix-run/node";
import type * as ServerApi from "~/platform/server-api.server";

export type App = typeof ServerApi;

/** Everything the server takes from the app; the type makes this list complete. */
const NAMES = Object.keys({
  assignmentKey: true,
  attributionOfRequest: true,
  bounded: true,
  checkConfigAtStart: true,
  ConfigError: true,
  createServices: true,
  exitWith: true,
  experimentOfRequest: true,
  hasClickId: true,
  logLine: true,
  pageVariant: true,
  parseConfig: true,
  registerDestination: true,
  runExperimentsReport: true,
  runLeadsReport: true,
  statsReporter: true,
  variantKey: true,
  writeErrorLine: true,
  writeLogLine: true,
} satisfies Record<keyof App, true>) as (keyof App)[];

/**
 * The app in `build`, or an error naming what it lacks: a build from another version of the app
 * (or from before it exported `serverApi`) must stop start-up, not fail on the first request.
 */
export function appOf(build: ServerBuild, file = "build/index.js"): App {
  const api = (build.entry?.module as { serverApi?: Partial<App> } | undefined)?.serverApi;
  if (!api) {
    throw new Error(
      `${file} does not export the app's code for the server (serverApi in app/entry.server.tsx): build again with \`npm run build\``,
    );
  }
  const missing = NAMES.filter((name) => typeof api[name] !== "function");
  if (missing.length > 0) {
    throw new Error(
      `${file} lacks serverApi.${missing.join(", serverApi.")}, which the server needs: build the app and the server together with \`npm run build\``,
    );
  }
  return api as App;
}

let bound: App | undefined;

/** Makes `app` the one the server's modules call, once per process (one build, one app). */
export function bindApp(app: App): App {
  if (bound !== undefined && bound !== app) {
    throw new Error("server/app.ts: a second app; the process serves one build");
  }
  bound = app;
  return app;
}

function current(): App {
  if (bound === undefined) throw new Error("server/app.ts: no app yet; call bindApp first");
  return bound;
}

type Functions = {
  [K in keyof App]: App[K] extends (...args: never[]) => unknown ? K : never;
}[keyof App];

/** `name` of the bound app, looked up on each call (so modules can import it before binding). */
function delegate<K extends Functions>(name: K): App[K] {
  return ((...args: unknown[]) =>
    (current()[name] as (...args: unknown[]) => unknown)(...args)) as App[K];
}

export const assignmentKey = delegate("assignmentKey");
export const attributionOfRequest = delegate("attributionOfRequest");
export const bounded = delegate("bounded");
export const createServices = delegate("createServices");
export const hasClickId = delegate("hasClickId");
export const logLine = delegate("logLine");
export const pageVariant = delegate("pageVariant");
export const statsReporter = delegate("statsReporter");
export const variantKey = delegate("variantKey");
export const experimentOfRequest = delegate("experimentOfRequest");
export const writeLogLine = delegate("writeLogLine");
export const writeErrorLine = delegate("writeErrorLine");
