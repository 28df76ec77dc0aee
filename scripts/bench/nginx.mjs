// The baseline: the very HTML that / rendered, served as a static file by nginx. The gap between
// the two is what rendering on each request costs.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { findNginx, nginxDir, runNginx, tempPathLines } from "../lib/nginx.mjs";
import { freePort, track } from "./processes.mjs";

/** nginx's path, installing Debian's package when we may; else `{ skipped: why }`. */
export function ensureNginx(log) {
  const found = findNginx();
  if (found) return { path: found };
  if (process.platform !== "linux" || !existsSync("/etc/debian_version")) {
    return { skipped: "nginx is not installed and this is not Debian" };
  }
  if (process.getuid?.() !== 0) {
    return { skipped: "nginx is not installed (`sudo apt-get install nginx` adds it)" };
  }
  log("Installing Debian's nginx package for the baseline…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const options = { env, stdio: ["ignore", "ignore", "inherit"], timeout: 300_000 };
  spawnSync("apt-get", ["update", "-qq"], options);
  spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "nginx"], options);
  const installed = findNginx();
  return installed ? { path: installed } : { skipped: "installing nginx with apt-get failed" };
}

function config({ dir, port }) {
  // One worker, as node serves from one thread; gzip as the server does, but precompressed
  // (gzip_static), which is how a static host would serve a file that never changes.
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  ${tempPathLines(dir).join("\n  ")}
  types {
    text/html html;
    text/css css;
    text/javascript js;
    image/svg+xml svg;
    application/json json;
  }
  default_type application/octet-stream;
  sendfile on;
  keepalive_requests 1000000;
  gzip on;
  gzip_static on;
  gzip_comp_level 6;
  gzip_types text/css text/javascript image/svg+xml application/json;
  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    index index.html;
  }
}
`;
}

export async function startNginx({ path, html, publicDir, logPath }) {
  const dir = nginxDir("darb-bench-nginx-");
  const untrackDir = track("nginx temp dir", () => rmSync(dir, { recursive: true, force: true }));
  cpSync(publicDir, join(dir, "www"), { recursive: true });
  writeFileSync(join(dir, "www", "index.html"), html);
  writeFileSync(join(dir, "www", "index.html.gz"), gzipSync(html, { level: 6 }));

  const port = await freePort();
  writeFileSync(join(dir, "nginx.conf"), config({ dir, port }));
  const url = `http://127.0.0.1:${port}`;
  const nginx = await runNginx({
    binary: path,
    dir,
    url: `${url}/`,
    logPath,
    timeoutMs: 20_000,
    // Stopped with the benchmark however it ends (Ctrl-C too), the workers with it.
    onSpawn: (child) =>
      child.on(
        "exit",
        track("nginx", () => process.kill(-child.pid, "SIGKILL")),
      ),
  });
  return {
    url,
    stop: async () => {
      await nginx.stop();
      untrackDir();
    },
  };
}
