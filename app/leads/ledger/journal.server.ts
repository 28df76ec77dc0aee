/**
 * An append-only file of JSON lines: the ledger's storage on one machine
 * (docs/decisions/016-lead-ledger.md). A line is written with one write() before the caller
 * goes on, so it survives the process being killed the moment after; the file is flushed to
 * the disk (fdatasync) within FLUSH_EVERY_MS, so a power cut loses at most that much.
 *
 * A disk that refuses a write (full, read-only, an I/O error) never fails the caller: the file is
 * cut back to its last whole line, the entry is held in memory, and what is held is written, in
 * order, as soon as the disk takes it again (tried every RETRY_EVERY_MS). Past MAX_HELD_BYTES the
 * held lines are let go and, once the disk is back, the whole live state is written afresh from
 * memory (`snapshot`): memory stays bounded and nothing alive is lost while the process runs.
 *
 * `rewrite` replaces the file with what is still alive, through a new file renamed over the
 * old, so a crash during it leaves one whole file or the other. `replayJournal` reads a file of
 * any size line by line.
 */
import * as nodeFs from "node:fs";
import { dirname } from "node:path";

export const FLUSH_EVERY_MS = 200;
/** While the disk refuses writes, how often the held lines are tried again. */
export const RETRY_EVERY_MS = 1000;
/** Held lines past this are let go: the live state is written afresh instead (above). */
export const MAX_HELD_BYTES = 32 * 1024 * 1024;
/** A line longer than this is no entry this code writes (the longest is a few MB): skipped. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export type JournalState = {
  /** Why the disk refuses writes now (an errno code such as ENOSPC), or null while it takes them. */
  failing: string | null;
  /** Since when it has (ms since the epoch), or null. */
  failingSince: number | null;
  /** Entries waiting for the disk. */
  held: number;
};

export type Journal<Entry> = {
  /** Writes the entry, or holds it while the disk refuses it. Never throws. */
  append: (entry: Entry) => void;
  /** Replaces everything written so far with `entries`; false (the old file kept) if it could not. */
  rewrite: (entries: Iterable<Entry>) => boolean;
  /** Bytes in the file now. */
  bytes: () => number;
  state: () => JournalState;
  close: () => void;
};

/** The file calls the journal makes: tests stand in for a disk that fails. */
export type JournalFs = Pick<
  typeof nodeFs,
  | "closeSync"
  | "fdatasyncSync"
  | "fstatSync"
  | "fsyncSync"
  | "ftruncateSync"
  | "mkdirSync"
  | "openSync"
  | "readSync"
  | "renameSync"
  | "rmSync"
  | "writeSync"
>;

export type Replay = {
  /** Lines read as JSON. */
  lines: number;
  /** Lines that were not JSON, or too long. */
  skipped: number;
  /** Bytes after the last newline: a line being written, or cut short by a crash. */
  tail: number;
};

/**
 * Every line of the file at `path`, in order, parsed, with its line number (from 1); a missing
 * file has none. Read in chunks, so its size is bounded by the disk, not by a string. A line that
 * is not JSON, or is longer than MAX_LINE_BYTES, goes to `onBad` and the rest is read on.
 */
export function replayJournal(
  path: string,
  onLine: (value: unknown, line: number) => void,
  onBad: (line: number, reason: string) => void = () => {},
): Replay {
  let fd: number;
  try {
    fd = nodeFs.openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { lines: 0, skipped: 0, tail: 0 };
    throw error;
  }
  const result: Replay = { lines: 0, skipped: 0, tail: 0 };
  const chunk = Buffer.allocUnsafe(1 << 20);
  let parts: Buffer[] = [];
  let partBytes = 0;
  let tooLong = false;
  let line = 0;

  const finish = (last: Buffer) => {
    line += 1;
    const whole = parts.length === 0 ? last : Buffer.concat([...parts, last]);
    parts = [];
    partBytes = 0;
    if (tooLong) {
      tooLong = false;
      result.skipped += 1;
      onBad(line, `longer than ${MAX_LINE_BYTES} bytes`);
      return;
    }
    if (whole.length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(whole.toString("utf8"));
    } catch {
      result.skipped += 1;
      onBad(line, "not JSON (a line cut short, or written by something else)");
      return;
    }
    result.lines += 1;
    onLine(value, line);
  };

  try {
    for (;;) {
      const read = nodeFs.readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      const view = chunk.subarray(0, read);
      let start = 0;
      for (;;) {
        const newline = view.indexOf(0x0a, start);
        if (newline === -1) break;
        finish(view.subarray(start, newline));
        start = newline + 1;
      }
      if (start < read) {
        const rest = view.subarray(start);
        partBytes += rest.length;
        if (partBytes > MAX_LINE_BYTES) {
          // Counted, not kept: the line is skipped when its newline comes.
          tooLong = true;
          parts = [];
        } else {
          parts.push(Buffer.from(rest));
        }
      }
    }
  } finally {
    nodeFs.closeSync(fd);
  }
  result.tail = partBytes;
  return result;
}

/** A journal kept in memory only: for unit tests, which have no data directory. */
export function memoryJournal<Entry>(): Journal<Entry> {
  let size = 0;
  return {
    append: (entry) => {
      size += JSON.stringify(entry).length + 1;
    },
    rewrite: (entries) => {
      size = 0;
      for (const entry of entries) size += JSON.stringify(entry).length + 1;
      return true;
    },
    bytes: () => size,
    state: () => ({ failing: null, failingSince: null, held: 0 }),
    close: () => {},
  };
}

export type FileJournalOptions<Entry> = {
  /** Everything alive, written afresh when held lines were let go or a flush failed. */
  snapshot?: () => Iterable<Entry>;
  /** Where the journal says it starts or stops failing: one line per change. */
  log?: (line: string) => void;
  fs?: JournalFs;
  retryEveryMs?: number;
  maxHeldBytes?: number;
  now?: () => number;
};

const codeOf = (error: unknown) =>
  String((error as NodeJS.ErrnoException)?.code ?? (error as Error)?.message ?? error).slice(0, 40);

/**
 * Where the last whole line of an open file ends: a line cut short by a crash after it was never
 * acknowledged, so it is cut off rather than having the next entry glued to it.
 */
function wholeLinesEnd(fs: JournalFs, fd: number, size: number): number {
  const step = 64 * 1024;
  const buffer = Buffer.allocUnsafe(step);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - step);
    const read = fs.readSync(fd, buffer, 0, end - start, start);
    const newline = buffer.subarray(0, read).lastIndexOf(0x0a);
    if (newline !== -1) return start + newline + 1;
    end = start;
  }
  return 0;
}

export function fileJournal<Entry>(
  path: string,
  options: FileJournalOptions<Entry> = {},
): Journal<Entry> {
  const fs = options.fs ?? nodeFs;
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  const maxHeldBytes = options.maxHeldBytes ?? MAX_HELD_BYTES;
  fs.mkdirSync(dirname(path), { recursive: true });
  // Read and write: the torn tail of an earlier crash is found and cut.
  let fd = fs.openSync(path, "a+");
  let size = fs.fstatSync(fd).size;
  const whole = wholeLinesEnd(fs, fd, size);
  if (whole < size) {
    log(JSON.stringify({ type: "ledger_tail_cut", bytes: size - whole }));
    fs.ftruncateSync(fd, whole);
    size = whole;
  }

  let dirty = false;
  let closed = false;
  let failing: { code: string; since: number } | null = null;
  let held: string[] = [];
  let heldFrom = 0;
  let heldBytes = 0;
  /** The file may lack something alive: written afresh from `snapshot` once the disk is back. */
  let stale = false;
  /** A write that failed left part of a line: cut before anything else is written. */
  let mustCut = false;
  let rewriteFailing: string | null = null;
  let retrying: NodeJS.Timeout | null = null;

  const heldCount = () => (stale ? 0 : held.length - heldFrom);

  function startFailing(error: unknown) {
    const code = codeOf(error);
    if (failing?.code === code) return;
    const since = failing?.since ?? now();
    failing = { code, since };
    log(
      JSON.stringify({
        type: "ledger_failing",
        code,
        error: String((error as Error)?.message ?? error).slice(0, 200),
        path,
      }),
    );
    if (!retrying && !closed) {
      retrying = setInterval(retry, options.retryEveryMs ?? RETRY_EVERY_MS);
      retrying.unref();
    }
  }

  function recovered(written: number) {
    if (!failing) return;
    log(
      JSON.stringify({
        type: "ledger_recovered",
        written,
        failing_ms: now() - failing.since,
      }),
    );
    failing = null;
    if (retrying) clearInterval(retrying);
    retrying = null;
  }

  /** Writes all of `text` after the last whole line, or cuts back and rethrows. */
  function writeLine(text: string) {
    if (mustCut) {
      fs.ftruncateSync(fd, size);
      mustCut = false;
    }
    const buffer = Buffer.from(text);
    let offset = 0;
    try {
      while (offset < buffer.length) offset += fs.writeSync(fd, buffer, offset);
    } catch (error) {
      if (offset > 0) {
        try {
          fs.ftruncateSync(fd, size);
        } catch {
          mustCut = true;
        }
      }
      throw error;
    }
    size += buffer.length;
    dirty = true;
  }

  function hold(text: string) {
    if (stale) return;
    if (heldBytes + text.length > maxHeldBytes) {
      // Let go: memory has it all, and it is written afresh once the disk is back.
      stale = true;
      held = [];
      heldFrom = 0;
      heldBytes = 0;
      return;
    }
    held.push(text);
    heldBytes += text.length;
  }

  function retry() {
    if (closed) return;
    if (stale) {
      if (options.snapshot) rewrite(options.snapshot());
      return;
    }
    let written = 0;
    while (heldFrom < held.length) {
      const text = held[heldFrom] as string;
      try {
        writeLine(text);
      } catch (error) {
        startFailing(error);
        return;
      }
      heldFrom += 1;
      heldBytes -= text.length;
      written += 1;
    }
    held = [];
    heldFrom = 0;
    recovered(written);
  }

  function rewrite(entries: Iterable<Entry>): boolean {
    const next = `${path}.next`;
    let out: number | null = null;
    try {
      out = fs.openSync(next, "w");
      let written = 0;
      for (const entry of entries) {
        const buffer = Buffer.from(`${JSON.stringify(entry)}\n`);
        let offset = 0;
        while (offset < buffer.length) offset += fs.writeSync(out, buffer, offset);
        written += buffer.length;
      }
      fs.fsyncSync(out);
      fs.closeSync(out);
      out = null;
      fs.renameSync(next, path);
      const reopened = fs.openSync(path, "a+");
      try {
        fs.closeSync(fd);
      } catch {
        // The old file is gone from the directory already; its descriptor goes either way.
      }
      fd = reopened;
      size = written;
      dirty = false;
      mustCut = false;
      const wasHeld = heldCount();
      held = [];
      heldFrom = 0;
      heldBytes = 0;
      stale = false;
      if (rewriteFailing) {
        rewriteFailing = null;
        log(JSON.stringify({ type: "ledger_rewrite_recovered" }));
      }
      recovered(wasHeld);
      return true;
    } catch (error) {
      if (out !== null) {
        try {
          fs.closeSync(out);
        } catch {
          // Nothing more to do with it.
        }
      }
      try {
        fs.rmSync(next, { force: true });
      } catch {
        // Left for the next rewrite, which opens it with "w".
      }
      const code = codeOf(error);
      if (rewriteFailing !== code) {
        rewriteFailing = code;
        log(JSON.stringify({ type: "ledger_rewrite_failed", code, path }));
      }
      return false;
    }
  }

  const flusher = setInterval(() => {
    if (!dirty || failing) return;
    try {
      fs.fdatasyncSync(fd);
      dirty = false;
    } catch (error) {
      // What the kernel held may be gone with the failed flush: the file is written afresh.
      stale = true;
      held = [];
      heldFrom = 0;
      heldBytes = 0;
      startFailing(error);
    }
  }, FLUSH_EVERY_MS);
  flusher.unref();

  return {
    append(entry) {
      if (closed) return;
      const text = `${JSON.stringify(entry)}\n`;
      if (!failing && !stale && heldFrom === held.length) {
        try {
          writeLine(text);
          return;
        } catch (error) {
          startFailing(error);
        }
      }
      hold(text);
    },
    rewrite,
    bytes: () => size,
    state: () => ({
      failing: failing?.code ?? null,
      failingSince: failing?.since ?? null,
      held: heldCount(),
    }),
    close() {
      if (closed) return;
      // One more try for what is held: a clean stop on a disk that came back loses nothing.
      if (failing) retry();
      closed = true;
      clearInterval(flusher);
      if (retrying) clearInterval(retrying);
      const lost = heldCount();
      if (failing || stale) {
        log(JSON.stringify({ type: "ledger_closed_failing", held: lost, stale }));
      }
      try {
        if (!failing) fs.fdatasyncSync(fd);
        fs.closeSync(fd);
      } catch {
        // Closing is the end either way.
      }
    },
  };
}
