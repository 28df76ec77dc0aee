/**
 * The ledger of this process, kept under DATA_DIR: `leads.jsonl`, and `leads.lock` naming the
 * process that writes it. One writer per directory: a second server pointed at the same one
 * stops at start-up instead of interleaving lines with the first.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fileJournal, replayJournal } from "~/leads/ledger/journal.server";
import { createLedger, type Ledger, type LedgerEntry } from "~/leads/ledger/ledger.server";
import { ConfigError } from "~/platform/config.server";

export const LEDGER_FILE = "leads.jsonl";
const LOCK_FILE = "leads.lock";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function lock(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(readFileSync(path, "utf8"));
      if (owner !== process.pid && Number.isInteger(owner) && owner > 0 && alive(owner)) {
        throw new ConfigError(
          "DATA_DIR",
          `is in use by process ${owner}: every server needs a data directory of its own`,
        );
      }
      // Left by a process that is gone (killed): taken over.
      rmSync(path, { force: true });
    }
  }
  throw new ConfigError("DATA_DIR", "could not be locked");
}

export function openLedger(dir: string, retentionDays: number): Ledger {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new ConfigError("DATA_DIR", `cannot be created: ${(error as Error).message}`);
  }
  const unlock = lock(dir);
  const path = join(dir, LEDGER_FILE);
  const journal = fileJournal<LedgerEntry>(path);
  const ledger = createLedger({
    journal,
    replay: (onEntry) => replayJournal(path, onEntry),
    retentionDays,
  });
  return {
    ...ledger,
    close() {
      ledger.close();
      unlock();
    },
  };
}

/** The ledger read by another process (`npm run leads`): no lock, nothing written. */
export function readLedger(dir: string, retentionDays = 3650) {
  const leads = createLedger({
    replay: (onEntry) => replayJournal(join(dir, LEDGER_FILE), onEntry),
    retentionDays,
  });
  leads.close();
  return leads;
}
