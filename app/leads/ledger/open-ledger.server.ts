/**
 * The ledger of this process, kept under DATA_DIR: `leads.jsonl`, and `leads.lock` naming the
 * process that writes it (its host and pid, refreshed every 10 s). One writer per directory: a
 * second server pointed at the same one stops at start-up instead of interleaving lines with
 * the first.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
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

/** The owner refreshes its lock this often; one not refreshed for 3 rounds is a dead owner's. */
export const LOCK_HEARTBEAT_MS = 10_000;

/**
 * Who holds a lock: its host and pid. In a container every server is pid 1, so the pid says
 * nothing about another container on the same volume: there the lock's age does. Our own host
 * with a dead pid (a restart, or a killed process) is taken over at once.
 */
function heldByAnother(path: string): string | null {
  const [host = "", pidText = ""] = readFileSync(path, "utf8").trim().split(" ");
  const pid = Number(pidText);
  // Empty or cut short: a process that died between creating the lock and writing it.
  if (!host || !Number.isInteger(pid) || pid <= 0) return null;
  // This very process holds it already (a second ledger on one directory).
  if (held.has(path)) return `this process (${pid})`;
  if (host === hostname()) {
    return pid !== process.pid && Number.isInteger(pid) && pid > 0 && alive(pid)
      ? `process ${pid}`
      : null;
  }
  const fresh = Date.now() - statSync(path).mtimeMs < 3 * LOCK_HEARTBEAT_MS;
  return fresh ? `process ${pid} on ${JSON.stringify(host.slice(0, 64))}` : null;
}

/** The locks this process holds. */
const held = new Set<string>();

function lock(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, `${hostname()} ${process.pid}`);
      closeSync(fd);
      held.add(path);
      const heartbeat = setInterval(() => {
        const now = new Date();
        try {
          utimesSync(path, now, now);
        } catch {
          // Removed from under us: the next start finds no lock, as after a clean stop.
        }
      }, LOCK_HEARTBEAT_MS);
      heartbeat.unref();
      return () => {
        clearInterval(heartbeat);
        held.delete(path);
        rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = heldByAnother(path);
      if (owner) {
        throw new ConfigError(
          "DATA_DIR",
          `is in use by ${owner}: every server needs a data directory of its own`,
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
