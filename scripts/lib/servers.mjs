// The replica tests (tests/integration/replicas.test.ts, redis-limits.test.ts) run Debian's
// redis-server and nginx as their own children, the alert tests (alerts.test.ts) run promtool,
// from Debian's prometheus package, and the ledger's fault tests (ledger-faults.test.ts) start a
// server eleven minutes ahead with faketime; installed here when missing, as Java is.
import { existsSync } from "node:fs";
import { aptInstall, onPath } from "./apt.mjs";

/** Each program the tests run, and the Debian package (and Homebrew formula) that has it. */
const PROGRAMS = {
  "redis-server": { debian: "redis-server", brew: "redis" },
  nginx: { debian: "nginx", brew: "nginx" },
  promtool: { debian: "prometheus", brew: "prometheus" },
  faketime: { debian: "faketime", brew: "libfaketime" },
};

function found(command) {
  return (
    onPath(command) || ["/usr/sbin", "/usr/bin"].some((dir) => existsSync(`${dir}/${command}`))
  );
}

/** True when all are there, installing Debian's packages when we may. */
export function ensureServers() {
  const missing = Object.keys(PROGRAMS).filter((command) => !found(command));
  if (missing.length === 0) return true;
  const debian = missing.map((command) => PROGRAMS[command].debian);
  console.log(
    `› Installing Debian's ${debian.join(" and ")} for the replica, alert and ledger tests…`,
  );
  if (aptInstall(...debian) && missing.every(found)) return true;
  console.error(
    `✖ No ${missing.join(" or ")}: the tests that run ${missing.length > 1 ? "them" : "it"} will fail. Install ${missing.length > 1 ? "them" : "it"} (Debian/Ubuntu: \`sudo apt-get install ${debian.join(" ")}\`; macOS: \`brew install ${missing.map((command) => PROGRAMS[command].brew).join(" ")}\`).`,
  );
  return false;
}
