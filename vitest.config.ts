import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Two projects, run as two steps of `npm test` (scripts/test.mjs): `unit` needs nothing but the
// source (it is `npm run test:quick`'s), `integration` serves the production build over HTTP and
// runs child servers, Redis and nginx. Each step sets its own workers.
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
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts"],
          // server/*.ts call the app's code through server/app.ts: here, the TypeScript sources.
          setupFiles: ["tests/support/unit-setup.ts"],
        },
      },
      {
        extends: true,
        test: { name: "integration", include: ["tests/integration/**/*.test.ts"] },
      },
    ],
  },
});
