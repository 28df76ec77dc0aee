// A request context as the app's server makes it, for unit tests of loaders and their helpers:
// the settings as the environment gives them, and services in memory (no data directory).

import type { RequestContext } from "~/platform/request-context.server";
import { getConfig } from "~/settings.server";
import { createServices } from "../../server/services";

export function testContext(overrides: Partial<RequestContext> = {}): RequestContext {
  const config = getConfig();
  return {
    clientAddress: "127.0.0.1",
    nonce: "test-nonce",
    config,
    services: createServices({}, { writeLine: () => {} }),
    documentKeeper: null,
    ...overrides,
  };
}
