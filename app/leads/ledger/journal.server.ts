/**
 * An append-only file of JSON lines: the ledger's storage on one machine
 * (docs/decisions/015-lead-ledger.md). A line is written with one write() before the caller
 * goes on, so it survives the process being killed the moment after; the file is flushed to
 * the disk (fdatasync) within FLUSH_EVERY_MS, so a power cut loses at most that much. Reading
 * it back replays every line in order; a line cut short by a crash mid-write is skipped and
 * counted. `rewrite` replaces the file with what is still alive, through a new file renamed
 * over the old, so a crash during it leaves one whole file or the other.
 */
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";

export const FLUSH_EVERY_MS = 200;

export type Journal<Entry> = {
  append: (entry: Entry) => void;
  /** Replaces everything written so far with `entries`. */
  rewrite: (entries: Iterable<Entry>) => void;
  /** Bytes in the file now. */
  bytes: () => number;
  close: () => void;
};

export type Replay = { lines: number; torn: number };

/** Every whole line of the file at `path`, in order; a missing file has none. */
export function replayJournal<Entry>(path: string, onEntry: (entry: Entry) => void): Replay {
  if (!existsSync(path)) return { lines: 0, torn: 0 };
  const text = readFileSync(path, "utf8");
  let lines = 0;
  let torn = 0;
  for (const line of text.split("\n")) {
    if (!line) continue;
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      // Only a crash mid-write leaves such a line: the write it belonged to was never
      // acknowledged, so nothing that was answered is lost with it.
      torn += 1;
      continue;
    }
    lines += 1;
    onEntry(entry);
  }
  return { lines, torn };
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
    },
    bytes: () => size,
    close: () => {},
  };
}

export function fileJournal<Entry>(path: string): Journal<Entry> {
  mkdirSync(dirname(path), { recursive: true });
  let fd = openSync(path, "a");
  let size = fstatSync(fd).size;
  let dirty = false;
  // A line cut short by a crash is followed by a newline, so the next line stays whole.
  if (size > 0 && !endsWithNewline(path)) write("\n");

  function write(text: string) {
    const buffer = Buffer.from(text);
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(fd, buffer, offset);
    size += buffer.length;
    dirty = true;
  }

  const flusher = setInterval(() => {
    if (!dirty) return;
    dirty = false;
    fdatasyncSync(fd);
  }, FLUSH_EVERY_MS);
  flusher.unref();

  return {
    append: (entry) => write(`${JSON.stringify(entry)}\n`),
    rewrite(entries) {
      const next = `${path}.next`;
      const out = openSync(next, "w");
      let written = 0;
      for (const entry of entries) {
        const buffer = Buffer.from(`${JSON.stringify(entry)}\n`);
        let offset = 0;
        while (offset < buffer.length) offset += writeSync(out, buffer, offset);
        written += buffer.length;
      }
      fsyncSync(out);
      closeSync(out);
      renameSync(next, path);
      closeSync(fd);
      fd = openSync(path, "a");
      size = written;
      dirty = false;
    },
    bytes: () => size,
    close() {
      clearInterval(flusher);
      fdatasyncSync(fd);
      closeSync(fd);
    },
  };
}

function endsWithNewline(path: string): boolean {
  const last = Buffer.alloc(1);
  const reader = openSync(path, "r");
  try {
    readSync(reader, last, 0, 1, fstatSync(reader).size - 1);
  } finally {
    closeSync(reader);
  }
  return last[0] === 0x0a;
}
