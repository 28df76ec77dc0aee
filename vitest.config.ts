import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

// Three projects, run as steps of `npm test` (scripts/test.mjs): `unit` needs nothing but the
// source (it is `npm run test:quick`'s); `integration` serves the production build over HTTP and
// runs child servers, Redis and nginx; `load` is the integration files that put the machine under
// load and compare timings under it, run alone. Each step sets its own workers. (fuzz.test.ts
// loads the machine too, but asserts only answers: it runs with the rest.)
const LOAD = [
  // Reads a Chromium trace of /, which a browser test beside it can leave without a navigation.
  "tests/integration/bench-trace.test.ts",
  "tests/integration/events-api.test.ts",
  "tests/integration/flood.test.ts",
  "tests/integration/ga4-faults.test.ts",
  // Writes and reads a ledger of 600 MB.
  "tests/integration/ledger-size.test.ts",
  "tests/integration/nginx-hardening.test.ts",
  // Idle gaps timed against Node's keep-alive, and a replica killed under a stream of requests.
  "tests/integration/nginx-upstream.test.ts",
  "tests/integration/redis-limits.test.ts",
  "tests/integration/replicas.test.ts",
  "tests/integration/shutdown.test.ts",
];

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    environment: "node",
    restoreMocks: true,
    unstubEnvs: true,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/unit/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...LOAD],
        },
      },
      { extends: true, test: { name: "load", include: LOAD } },
    ],
  },
});
