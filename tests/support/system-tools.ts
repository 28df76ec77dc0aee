// Programs the topology tests run from the system (Debian's redis-server and nginx), and the
// children they start, stopped when the test process ends however it ends.
import { type ChildProcess, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * The path of `name`, or an error an operator can act on in one line. Never a skip: a missing
 * program must fail the run, in CI above all (`.ci/run` and `npm test` install both on Debian).
 */
export function systemTool(name: "redis-server" | "redis-cli" | "nginx"): string {
  for (const dir of ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"]) {
    if (existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  }
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
  if (found) return found;
  const pkg = name === "nginx" ? "nginx" : "redis-server";
  throw new Error(
    `${name} is not installed; the replica tests need it (Debian: \`apt-get install ${pkg}\`, which \`npm test\` and .ci/run do as root; macOS: \`brew install ${pkg === "nginx" ? "nginx" : "redis"}\`).`,
  );
}

/** Process groups this test process started; each is SIGKILLed at exit if still there. */
const groups = new Set<number>();
let hooked = false;

function killAll() {
  for (const pid of groups) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  groups.clear();
}

/** Tracks a child started with `detached: true` (its own process group) until it exits. */
export function trackGroup(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  groups.add(pid);
  child.once("exit", () => groups.delete(pid));
  if (!hooked) {
    hooked = true;
    process.once("exit", killAll);
  }
}
