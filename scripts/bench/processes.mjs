// Every process the benchmark starts is registered here so that it is stopped however the run
// ends: normally, on an error, or on Ctrl-C.
import { execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

const running = new Map();

/** `kill` must be synchronous: it also runs from the process's 'exit' handler. */
export function track(name, kill) {
  const id = Symbol(name);
  running.set(id, kill);
  return () => running.delete(id);
}

function stopAll() {
  for (const kill of running.values()) {
    try {
      kill();
    } catch {
      // Already gone.
    }
  }
  running.clear();
}

process.on("exit", stopAll);
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.on(signal, () => {
    console.error(`\n› ${signal}: stopping the server, nginx and Chromium…`);
    process.exit(code);
  });
}

/** A port nothing listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Polls until `url` answers at all (any status), failing early if `child` exits. */
export async function waitForHttp(url, child, { timeoutMs = 20_000, name = "server" } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it answered`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${name} did not answer ${url} within ${timeoutMs / 1000} s`);
}

/**
 * Spawns a tracked process with its output in `logPath`. With `group`, it leads its own process
 * group and is stopped as a group: nginx's workers would outlive a master killed on its own.
 */
export function spawnTracked(name, command, args, { env, cwd, logPath, group = false }) {
  const log = openSync(logPath, "a");
  const child = spawn(command, args, {
    cwd,
    env,
    detached: group,
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const target = () => (group ? -child.pid : child.pid);
  const untrack = track(name, () => process.kill(target(), "SIGKILL"));
  child.on("exit", untrack);

  /** Asks politely, then insists after `graceMs`. */
  child.stop = async (graceMs = 6000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(target(), "SIGTERM");
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(target(), "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
    }, graceMs);
    await exited;
    clearTimeout(timer);
  };
  return child;
}

/** Resident memory of a process in bytes (Linux), or null where /proc is not there. */
export function rssBytes(pid) {
  const path = `/proc/${pid}/status`;
  if (!existsSync(path)) return null;
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(path, "utf8"));
  return match ? Number(match[1]) * 1024 : null;
}

let ticksPerSecond;

/**
 * CPU time (user + system) in ms that a process has used so far, in all its threads and in its
 * main thread alone (Linux; null where /proc is not there). Resolution: one clock tick (10 ms).
 */
export function cpuTimes(pid) {
  const path = `/proc/${pid}/stat`;
  if (!existsSync(path)) return null;
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  const used = (file) => {
    const stat = readFileSync(file, "utf8");
    // Fields after the command name in parentheses, from field 3 (state): utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  };
  return { total: used(path), main: used(`/proc/${pid}/task/${pid}/stat`) };
}
