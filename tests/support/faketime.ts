// A server started as if later than now: libfaketime (Debian's faketime package) shifts the
// clock the process reads, so a test sees what a restart that much later does without waiting.
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The environment that starts a process `offset` ahead ("+11m", as libfaketime writes it). */
export function clockAhead(offset: string): Record<string, string> {
  const roots = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"];
  for (const root of roots) {
    try {
      if (readdirSync(join(root, "faketime")).includes("libfaketime.so.1")) {
        return { LD_PRELOAD: join(root, "faketime", "libfaketime.so.1"), FAKETIME: offset };
      }
    } catch {
      // not here
    }
  }
  throw new Error(
    "libfaketime is missing: install Debian's faketime package (npm test and .ci/run do)",
  );
}
