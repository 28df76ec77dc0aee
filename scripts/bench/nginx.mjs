// The baseline: the very HTML that / rendered, served as a static file by nginx. The gap between
// the two is what rendering on each request costs.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { freePort, spawnTracked, track, waitForHttp } from "./processes.mjs";

function nginxPath() {
  for (const path of ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"]) {
    if (existsSync(path)) return path;
  }
  const which = spawnSync("which", ["nginx"], { encoding: "utf8" });
  return which.status === 0 ? which.stdout.trim() : null;
}

/** nginx's path, installing Debian's package when we may; else `{ skipped: why }`. */
export function ensureNginx(log) {
  const found = nginxPath();
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
  const installed = nginxPath();
  return installed ? { path: installed } : { skipped: "installing nginx with apt-get failed" };
}

function config({ dir, port }) {
  // One worker, as node serves from one thread; gzip as the server does, but precompressed
  // (gzip_static), which is how a static host would serve a file that never changes.
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
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
  const dir = mkdtempSync(join(tmpdir(), "darb-bench-nginx-"));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const untrackDir = track("nginx temp dir", removeDir);
  // nginx's workers drop root for `nobody`, who must be able to read the files.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, "tmp"));
  cpSync(publicDir, join(dir, "www"), { recursive: true });
  writeFileSync(join(dir, "www", "index.html"), html);
  writeFileSync(join(dir, "www", "index.html.gz"), gzipSync(html, { level: 6 }));

  const port = await freePort();
  writeFileSync(join(dir, "nginx.conf"), config({ dir, port }));
  const child = spawnTracked(
    "nginx",
    path,
    ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log")],
    {
      env: process.env,
      logPath,
      group: true,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/`, child, { name: "nginx" });
  return {
    url,
    stop: async () => {
      await child.stop();
      removeDir();
      untrackDir();
    },
  };
}
