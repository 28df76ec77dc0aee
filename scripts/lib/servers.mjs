// The replica tests (tests/integration/replicas.test.ts, redis-limits.test.ts) run Debian's
// redis-server and nginx as their own children; installed here when missing, as Java is.
import { existsSync } from "node:fs";
import { aptInstall, onPath } from "./apt.mjs";

const SERVERS = ["redis-server", "nginx"];

function found(command) {
  return (
    onPath(command) || ["/usr/sbin", "/usr/bin"].some((dir) => existsSync(`${dir}/${command}`))
  );
}

/** True when both are there, installing Debian's packages when we may. */
export function ensureServers() {
  const missing = SERVERS.filter((command) => !found(command));
  if (missing.length === 0) return true;
  console.log(`› Installing Debian's ${missing.join(" and ")} for the replica tests…`);
  if (aptInstall(...missing) && missing.every(found)) return true;
  console.error(
    `✖ No ${missing.join(" or ")}: the replica tests will fail. Install ${missing.length > 1 ? "them" : "it"} (Debian/Ubuntu: \`sudo apt-get install ${missing.join(" ")}\`; macOS: \`brew install ${missing.map((name) => (name === "redis-server" ? "redis" : name)).join(" ")}\`).`,
  );
  return false;
}
