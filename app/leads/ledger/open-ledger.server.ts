/**
 * The ledger of this process, kept under DATA_DIR: `leads.jsonl`, and `leads.lock` naming the
 * process that writes it (its host and pid). One writer per directory: a second server pointed
 * at the same one stops at start-up instead of interleaving lines with the first. Anything wrong
 * with the directory at start is one config_error for DATA_DIR naming the cause; once running,
 * a disk that refuses writes degrades the ledger (journal.server.ts), never the server.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { fileJournal, type Journal, replayJournal } from "~/leads/ledger/journal.server";
import { createLedger, type Ledger, type LedgerEntry } from "~/leads/ledger/ledger.server";
import { ConfigError } from "~/platform/setting-readers.server";

export const LEDGER_FILE = "leads.jsonl";
const LOCK_FILE = "leads.lock";

/**
 * The owner touches its lock this often, from a thread of its own, so a main thread busy for
 * seconds (reading a large ledger) still keeps it. A lock that does not change for
 * LOCK_STALE_MS is a gone process's: a recreated container takes its volume over in about that.
 */
export const LOCK_HEARTBEAT_MS = 250;
export const LOCK_STALE_MS = 1000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Blocks for `ms`: start-up only, before anything is served. */
function pause(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const mtimeOf = (path: string) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
};

/**
 * Who holds a lock: its host and pid. On this host a pid says whether its process lives. In a
 * container every server is pid 1 and the host is the container, so for a lock from another
 * host its heartbeat says: one that moves within LOCK_STALE_MS is alive; one that does not, or
 * has not moved for longer by this machine's clock, is a gone process's.
 */
function heldByAnother(path: string): string | null {
  const [host = "", pidText = ""] = readFileSync(path, "utf8").trim().split(" ");
  const pid = Number(pidText);
  // Empty or cut short: a process that died between creating the lock and writing it.
  if (!host || !Number.isInteger(pid) || pid <= 0) return null;
  // This very process holds it already (a second ledger on one directory).
  if (held.has(path)) return `this process (${pid})`;
  if (host === hostname()) {
    return pid !== process.pid && alive(pid) ? `process ${pid}` : null;
  }
  const owner = `process ${pid} on ${JSON.stringify(host.slice(0, 64))}`;
  const first = mtimeOf(path);
  if (first === null) return null;
  // Long unchanged by this machine's clock: no need to watch it.
  if (Date.now() - first > 30 * LOCK_STALE_MS) return null;
  for (let waited = 0; waited <= LOCK_STALE_MS; waited += LOCK_HEARTBEAT_MS / 5) {
    pause(LOCK_HEARTBEAT_MS / 5);
    const now = mtimeOf(path);
    if (now === null) return null;
    if (now !== first) return owner;
  }
  return null;
}

/** The locks this process holds. */
const held = new Set<string>();

/** The heartbeat, on a thread of its own; on this thread if a worker cannot start. */
function startHeartbeat(path: string): () => void {
  const touch = `
    const { workerData } = require("node:worker_threads");
    const { utimesSync } = require("node:fs");
    setInterval(() => {
      const now = new Date();
      try { utimesSync(workerData.path, now, now); } catch {}
    }, workerData.ms);
  `;
  try {
    const worker = new Worker(touch, { eval: true, workerData: { path, ms: LOCK_HEARTBEAT_MS } });
    worker.unref();
    // A worker that fails is not the ledger failing: the next start watches the lock anyway.
    worker.on("error", () => {});
    return () => void worker.terminate();
  } catch {
    const timer = setInterval(() => {
      const now = new Date();
      try {
        utimesSync(path, now, now);
      } catch {
        // Removed from under us: the next start finds no lock, as after a clean stop.
      }
    }, LOCK_HEARTBEAT_MS);
    timer.unref();
    return () => clearInterval(timer);
  }
}

/** DATA_DIR's config_error for a file system error: the cause in its words. */
function dataDirError(what: string, error: unknown): ConfigError {
  const { code, message } = error as NodeJS.ErrnoException;
  const reason = code === "EROFS" ? "the file system is read-only" : message;
  return new ConfigError("DATA_DIR", `${what} (${code ?? "error"}: ${reason})`);
}

function lock(dir: string, log: (line: string) => void): () => void {
  const path = join(dir, LOCK_FILE);
  for (let tries = 0; tries < 2; tries++) {
    let fd: number;
    try {
      fd = openSync(path, "wx");
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      if (code !== "EEXIST") throw dataDirError("cannot be written", error);
      const watching = performance.now();
      const owner = heldByAnother(path);
      if (owner) {
        throw new ConfigError(
          "DATA_DIR",
          `is in use by ${owner}: every server needs a data directory of its own`,
        );
      }
      // Left by a process that is gone (killed, or its container removed): taken over.
      log(
        JSON.stringify({
          type: "ledger_lock_taken_over",
          lock: readFileSync(path, "utf8").trim().slice(0, 80),
          waited_ms: Math.round(performance.now() - watching),
        }),
      );
      rmSync(path, { force: true });
      continue;
    }
    try {
      writeSync(fd, `${hostname()} ${process.pid}`);
    } catch {
      // A full disk: the lock exists, nameless, and a start on a full disk still serves.
    } finally {
      closeSync(fd);
    }
    held.add(path);
    const stop = startHeartbeat(path);
    return () => {
      stop();
      held.delete(path);
      rmSync(path, { force: true });
    };
  }
  throw new ConfigError("DATA_DIR", "could not be locked: another server took it at the same time");
}

export function openLedger(
  dir: string,
  retentionDays: number,
  log: (line: string) => void = () => {},
): Ledger {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw dataDirError("cannot be created", error);
  }
  const unlock = lock(dir, log);
  const path = join(dir, LEDGER_FILE);
  let ledger: Ledger | undefined;
  let journal: Journal<LedgerEntry>;
  try {
    journal = fileJournal<LedgerEntry>(path, {
      // Written afresh from memory when what the disk refused could not all be held.
      snapshot: () => ledger?.live() ?? [],
      log,
    });
  } catch (error) {
    unlock();
    throw dataDirError(`cannot keep ${LEDGER_FILE}`, error);
  }
  try {
    ledger = createLedger({
      journal,
      replay: (onLine, onBad) => replayJournal(path, onLine, onBad),
      retentionDays,
      log,
    });
  } catch (error) {
    journal.close();
    unlock();
    throw dataDirError(`cannot read ${LEDGER_FILE}`, error);
  }
  const opened = ledger;
  return {
    ...opened,
    close() {
      opened.close();
      unlock();
    },
  };
}

/** The ledger read by another process (`npm run leads`): no lock, nothing written. */
export function readLedger(dir: string, retentionDays = 3650) {
  const leads = createLedger({
    replay: (onLine, onBad) => replayJournal(join(dir, LEDGER_FILE), onLine, onBad),
    retentionDays,
  });
  leads.close();
  return leads;
}

/**
 * A consistent copy of the ledger under `dir`, taken while its server runs: what is alive now
 * (leads, chats, calls still owed; never a credential), written to a new file beside `file` and
 * renamed onto it. Restored as `leads.jsonl`, it is a ledger like any other.
 */
export function backupLedger(
  dir: string,
  file: string,
  retentionDays = 3650,
): { leads: number; chats: number; calls: number; bytes: number } {
  const ledger = readLedger(dir, retentionDays);
  const next = join(dirname(file), `.${Date.now().toString(36)}.backup-part`);
  const fd = openSync(next, "wx", 0o600);
  let bytes = 0;
  let calls = 0;
  try {
    for (const entry of ledger.live()) {
      if (entry.t === "calls") calls += entry.calls.length;
      const buffer = Buffer.from(`${JSON.stringify(entry)}\n`);
      let offset = 0;
      while (offset < buffer.length) offset += writeSync(fd, buffer, offset);
      bytes += buffer.length;
    }
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(next, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(next, file);
  return { leads: ledger.leads().length, chats: ledger.chats().length, calls, bytes };
}
