// A file system of a few hundred kB, for the tests of a data directory that fills: a tmpfs
// mounted for the test (Linux, as root, as CI runs), that the test fills to the last byte with a
// file of its own and empties again, as a full disk and an operator freeing space would.
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type SmallDisk = {
  /** Where it is mounted. */
  dir: string;
  /** Takes every byte left with a file of the test's own. */
  fill: () => void;
  /** Gives the space back. */
  free: () => void;
  unmount: () => void;
};

export function mountSmallDisk(kb: number, options: { readOnly?: boolean } = {}): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), "darb-small-disk-"));
  try {
    execFileSync("mount", [
      "-t",
      "tmpfs",
      "-o",
      `size=${kb}k${options.readOnly ? ",ro" : ""}`,
      "tmpfs",
      dir,
    ]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `could not mount a ${kb} kB tmpfs for the full-disk tests (they need root, as CI has): ${(error as Error).message}`,
    );
  }
  const filler = join(dir, "filler");
  return {
    dir,
    fill() {
      const fd = openSync(filler, "a");
      const block = Buffer.alloc(4096);
      try {
        for (;;) writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      } finally {
        closeSync(fd);
      }
    },
    free: () => rmSync(filler, { force: true }),
    unmount() {
      try {
        execFileSync("umount", ["-l", dir]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
