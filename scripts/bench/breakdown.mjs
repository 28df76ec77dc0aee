// Where the time of one GET / goes, cached and uncached. The server under `node --cpu-prof`
// answers a fixed number of requests one at a time, with gzip and without; /proc says how much
// CPU they cost, in all threads and in the main one (zlib compresses on libuv's threadpool, which
// the profile cannot see), and the profile (profile.mjs) how the main thread's share splits.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { BROWSER } from "./load.mjs";
import { cpuTimes } from "./processes.mjs";
import { summariseProfile } from "./profile.mjs";
import { startServer } from "./server.mjs";

export const MODES = [
  { renderCache: "on", name: "cached", warmup: 300, requests: 1000 },
  { renderCache: "off", name: "uncached", warmup: 60, requests: 200 },
];
const ENCODINGS = {
  gzip: BROWSER,
  identity: { ...BROWSER, "accept-encoding": "identity" },
};

// Microseconds of CLOCK_MONOTONIC: the clock of the profile's timestamps, in any process.
const now = () => Number(process.hrtime.bigint() / 1000n);

/** `count` GETs of `url`, each sent when the previous one has returned; the number not 200. */
async function oneAtATime(url, count, headers) {
  const { hostname, port, pathname } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise((resolve, reject) => {
      const req = request({ agent, hostname, port, path: pathname, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
        res.on("error", reject);
      });
      req.setTimeout(10_000, () => req.destroy(new Error(`GET ${url} timed out`)));
      req.on("error", reject);
      req.end();
    });
  let failed = 0;
  try {
    for (let i = 0; i < count; i++) if ((await get()) !== 200) failed++;
  } finally {
    agent.destroy();
  }
  return failed;
}

async function measureMode({ root, dir, mode, log }) {
  const name = `render-cache-${mode.renderCache}.cpuprofile`;
  rmSync(join(dir, name), { force: true });
  const server = await startServer({
    root,
    renderCache: mode.renderCache,
    logPath: join(dir, `server-${mode.name}.log`),
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`],
  });
  const batches = {};
  try {
    await oneAtATime(`${server.url}/`, mode.warmup, BROWSER);
    for (const [encoding, headers] of Object.entries(ENCODINGS)) {
      const before = cpuTimes(server.child.pid);
      const from = now();
      const failed = await oneAtATime(`${server.url}/`, mode.requests, headers);
      const to = now();
      const after = cpuTimes(server.child.pid);
      const per = (value) => value / mode.requests;
      batches[encoding] = {
        requests: mode.requests,
        failed,
        from,
        to,
        msPerRequest: per((to - from) / 1000),
        cpuPerRequest: before && after ? per(after.total - before.total) : null,
        mainCpuPerRequest: before && after ? per(after.main - before.main) : null,
      };
    }
  } finally {
    // SIGTERM lets the server close and node write the profile on its way out.
    await server.child.stop(15_000);
  }
  const path = join(dir, name);
  const gzip = batches.gzip;
  let mainThread = null;
  if (existsSync(path)) {
    const summary = summariseProfile(JSON.parse(readFileSync(path, "utf8")), {
      from: gzip.from,
      to: gzip.to,
    });
    // Sampled times are wall clock (a preempted thread keeps its last frame), so the profile
    // gives the shares and /proc the main thread's CPU they divide.
    if (summary.busy > 0 && gzip.mainCpuPerRequest !== null) {
      mainThread = Object.fromEntries(
        Object.entries(summary.totals).map(([id, ms]) => [
          id,
          (ms / summary.busy) * gzip.mainCpuPerRequest,
        ]),
      );
    }
    batches.gzip.profile = { ...summary, file: name };
  } else {
    log(`No profile at ${path}: the ${mode.name} server did not exit cleanly.`);
  }
  return { ...mode, batches, mainThread };
}

/** Both modes, one server each; the profiles and server logs go to `dir`. */
export async function breakdown({ root, dir, log }) {
  const results = {};
  for (const mode of MODES) {
    log(
      `GET / ${mode.name} under --cpu-prof, ${mode.requests} one at a time with gzip and without…`,
    );
    results[mode.name] = await measureMode({ root, dir, mode, log });
  }
  return results;
}
