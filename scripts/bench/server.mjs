// The production build as `npm start` serves it, on a free loopback port. `renderCache: "off"`
// renders every request (RENDER_CACHE=off); `nodeArgs` go to node before the server's script.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, spawnTracked, waitForHttp } from "./processes.mjs";

export async function startServer({
  root,
  logPath,
  renderCache = "on",
  nodeArgs = [],
  experimentsFile,
}) {
  const port = await freePort();
  const metricsPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: url,
    ANALYTICS_SALT: "bench-salt-not-a-secret-0001",
    // The fixed-rate run sends X-Forwarded-For so that it counts as many visitors, not one
    // address that the /api/events rate limiter would answer with 429.
    TRUST_PROXY: "1",
    RENDER_CACHE: renderCache,
    // An A/B test of the hero (experiments.example.json), or none (EXPERIMENTS_FILE unset).
    ...(experimentsFile ? { EXPERIMENTS_FILE: experimentsFile } : {}),
    // A lead ledger of this run's own, on the machine's disk like production's.
    DATA_DIR: mkdtempSync(join(tmpdir(), "darb-bench-data-")),
    // What the ledger's writes cost is read from the server's own /metrics.
    METRICS_PORT: String(metricsPort),
  };
  // A developer's real GA4 settings must not receive thousands of benchmark events.
  for (const name of ["GA_MEASUREMENT_ID", "GA_API_SECRET", "GA_MP_ENDPOINT"]) delete env[name];
  if (!experimentsFile) delete env.EXPERIMENTS_FILE;

  const child = spawnTracked(
    "server",
    process.execPath,
    [...nodeArgs, join(root, "server-build/index.js")],
    { cwd: root, env, logPath },
  );
  await waitForHttp(`${url}/healthz`, child, { name: "the server" });
  return { url, child, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
}
