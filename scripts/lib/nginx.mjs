// nginx as a child process on loopback, its files in a temporary directory of its own: what the
// bench's static baseline (scripts/bench/nginx.mjs) and the tests' proxy running deploy/nginx
// (tests/support/nginx-proxy.ts) both need. Each writes its own configuration; this finds the
// binary, makes the directory, checks the files with `nginx -t`, starts it, waits for it to
// answer, and stops it with its workers.
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** nginx's path (Debian puts it in /usr/sbin, often off a user's PATH), or null. */
export function findNginx() {
  for (const dir of ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"]) {
    if (existsSync(`${dir}/nginx`)) return `${dir}/nginx`;
  }
  const found = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout?.trim();
  return found || null;
}

/**
 * A new directory for one nginx, with `tmp/` and each of `writable` in it. Run as root, nginx's
 * workers are `nobody`: they must read the directory and write to those.
 * @param {string} prefix
 * @param {string[]} [writable]
 */
export function nginxDir(prefix, writable = []) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  for (const sub of ["tmp", ...writable]) {
    mkdirSync(join(dir, sub));
    chmodSync(join(dir, sub), 0o777);
  }
  return dir;
}

/**
 * The lines for the `http` block that keep nginx's temporary files in `dir`/tmp, not under /var.
 * @param {string} dir
 */
export function tempPathLines(dir) {
  return ["body", "proxy", "fastcgi", "uwsgi", "scgi"].map(
    (kind) => `${kind === "body" ? "client_body" : kind}_temp_path ${dir}/tmp/${kind};`,
  );
}

/**
 * Runs `nginx -p dir -c dir/nginx.conf` in the foreground, in a process group of its own (its
 * workers would outlive a master stopped alone), once `nginx -t` accepts the files; resolves when
 * `url` answers at all. `onSpawn` registers the child with the caller's clean-up at exit. `stop`
 * ends the group (SIGTERM, then SIGKILL after 5 s) and removes `dir`.
 * @param {{
 *   binary: string,
 *   dir: string,
 *   url: string,
 *   logPath?: string,
 *   timeoutMs?: number,
 *   onSpawn?: (child: import("node:child_process").ChildProcess) => void,
 * }} options
 */
export async function runNginx({ binary, dir, url, logPath, timeoutMs = 10_000, onSpawn }) {
  const errorLogPath = join(dir, "error.log");
  const args = ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", errorLogPath, "-g", "daemon off;"];
  const check = spawnSync(binary, ["-t", ...args], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`nginx -t refused the configuration:\n${check.stderr}`);

  const log = logPath ? openSync(logPath, "a") : "ignore";
  const child = spawn(binary, args, { stdio: ["ignore", log, log], detached: true });
  if (typeof log === "number") closeSync(log);
  onSpawn?.(child);
  const errorLog = () => {
    try {
      return readFileSync(errorLogPath, "utf8");
    } catch {
      return "";
    }
  };
  const running = () => child.exitCode === null && child.signalCode === null;

  async function stop() {
    if (running() && child.pid) {
      const pid = child.pid;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      const group = (signal) => {
        try {
          process.kill(-pid, signal);
        } catch {
          // Gone meanwhile.
        }
      };
      group("SIGTERM");
      const timer = setTimeout(() => group("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  }

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!running()) {
      const log = errorLog();
      await stop();
      throw new Error(`nginx exited at start:\n${log}`);
    }
    try {
      await (await fetch(url, { signal: AbortSignal.timeout(2000) })).arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        const log = errorLog();
        await stop();
        throw new Error(`nginx did not answer in ${timeoutMs / 1000} s:\n${log}`);
      }
      await sleep(25);
    }
  }
  return { child, errorLog, stop };
}
