// The unit project's setup (vitest.config.ts). The unit tests run server/*.ts on the app's
// TypeScript sources: before each server/ test file, the app that server/app.ts calls is bound to
// them, as server/index.ts binds the build's in production. The app's own test files skip it
// (it would load the services for nothing).
import { join, sep } from "node:path";
import { expect } from "vitest";
import { bindApp } from "../../server/app";

const SERVER = join(import.meta.dirname, "..", "..", "server") + sep;

if (expect.getState().testPath?.startsWith(SERVER)) {
  bindApp(await import("~/platform/server-api.server"));
}
