import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// The projects run as steps of `npm test` (scripts/test.mjs): `unit` and `unit-isolated` need
// nothing but the source (they are the unit step, `npm run test:quick`'s); `integration` serves
// the production build over HTTP and runs child servers, Redis and nginx; `load` is the
// integration files that put the machine under load and compare timings under it, run alone.
// Each step sets its own workers. (fuzz.test.ts loads the machine too, but asserts only answers:
// it runs with the rest.)
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

const UNIT = ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/unit/**/*.test.ts"];

// Unit files share one module graph per worker, which takes a third off the step: their modules
// keep no state a test leaves behind (shuffled file orders pass: docs/testing.md). Two kinds get
// a graph of their own, found here by their text: a file that replaces a module (`vi.mock`)
// would hand its stand-in to the files after it, or find the real module loaded already; one in
// a DOM (`@vitest-environment`) leaves globals that change what a package sees as it loads.
const ISOLATED = ["app", "server", "tests/unit"].flatMap((dir) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.test\.tsx?$/.test(name))
    .map((name) => `${dir}/${name}`)
    .filter((file) => /\bvi\.(do)?mock\(|@vitest-environment /.test(readFileSync(file, "utf8"))),
);

// Integration files that spend a minute waiting on the clock (an outage held for its length):
// started first, their waiting overlaps the other files' work instead of ending the step.
const WAITING = ["tests/integration/whatsapp-reply.test.ts"];
for (const path of WAITING) if (!existsSync(path)) throw new Error(`vitest.config.ts: no ${path}`);

class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const waits = (file: TestSpecification) =>
      WAITING.some((path) => file.moduleId.endsWith(`/${path}`));
    // Projects stay in the order the base gives them; inside each, the waiting files lead.
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    return projects.flatMap((name) => {
      const own = sorted.filter((file) => file.project.name === name);
      return [...own.filter(waits), ...own.filter((file) => !waits(file))];
    });
  }
}

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    environment: "node",
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
    sequence: { sequencer: WaitingFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: UNIT,
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
        },
      },
      { extends: true, test: { name: "unit-isolated", include: ISOLATED } },
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
