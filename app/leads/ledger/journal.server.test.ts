import * as fs from "node:fs";
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  fileJournal,
  type Journal,
  type JournalFs,
  MAX_LINE_BYTES,
  memoryJournal,
  replayJournal,
} from "~/leads/ledger/journal.server";

// The flush runs every FLUSH_EVERY_MS on a timer; a busy machine may hold a timer back well past
// vitest's one-second default, which is no failure of the journal.
const SETTLED = { timeout: 10_000 };

type Entry = { t: string; n: number; text?: string };

let dir: string;
let path: string;
const open: Journal<Entry>[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "journal-test-"));
  path = join(dir, "leads.jsonl");
});
afterEach(() => {
  for (const journal of open.splice(0)) {
    try {
      journal.close();
    } catch {
      // Closed by the test already.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

const logged: Array<Record<string, unknown>> = [];
const log = (line: string) => logged.push(JSON.parse(line));
beforeEach(() => {
  logged.length = 0;
});

function journalAt(at = path, options: Parameters<typeof fileJournal<Entry>>[1] = {}) {
  const journal = fileJournal<Entry>(at, { log, ...options });
  open.push(journal);
  return journal;
}

function replayed(at = path) {
  const entries: Entry[] = [];
  const bad: Array<[number, string]> = [];
  const result = replayJournal(
    at,
    (value) => entries.push(value as Entry),
    (line, reason) => bad.push([line, reason]),
  );
  return { entries, ...result, bad: bad.map(([line]) => line) };
}

const entry = (n: number, text?: string): Entry => (text ? { t: "e", n, text } : { t: "e", n });
const lineOf = (value: Entry) => `${JSON.stringify(value)}\n`;

/**
 * The real file calls, but a disk that can be made to refuse writes (`refuse`) after taking
 * `room` more bytes (a write that does not fit is written in part, as a full disk does), or
 * fail its flushes.
 */
function flakyDisk() {
  const disk = {
    refuse: null as string | null,
    room: 0,
    failFlush: false,
    fs: {
      ...fs,
      writeSync: ((fd: number, buffer: Buffer, at?: number | null) => {
        const offset = at ?? 0;
        if (disk.refuse) {
          const fits = Math.min(disk.room, buffer.length - offset);
          if (fits <= 0) {
            throw Object.assign(new Error(`${disk.refuse}: no`), { code: disk.refuse });
          }
          disk.room -= fits;
          return fs.writeSync(fd, buffer, offset, fits);
        }
        return fs.writeSync(fd, buffer, offset);
      }) as JournalFs["writeSync"],
      fdatasyncSync: ((fd: number) => {
        if (disk.failFlush) throw Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
        fs.fdatasyncSync(fd);
      }) as JournalFs["fdatasyncSync"],
    } as JournalFs,
  };
  return disk;
}

describe("fileJournal and replayJournal", () => {
  it("read back every entry appended, in order, one line each", () => {
    const journal = journalAt();
    // A newline inside a value stays inside its line.
    const written = [entry(1), entry(2, "two\nlines"), entry(3, "مرحبا")];
    for (const each of written) journal.append(each);
    expect(readFileSync(path, "utf8").split("\n")).toHaveLength(4);
    expect(journal.bytes()).toBe(statSync(path).size);
    expect(replayed()).toEqual({ entries: written, lines: 3, skipped: 0, tail: 0, bad: [] });
  });

  it("replays nothing from a file that is not there, and creates its directory on open", () => {
    expect(replayed(join(dir, "missing.jsonl")).lines).toBe(0);
    const nested = join(dir, "a", "b", "leads.jsonl");
    journalAt(nested).append(entry(1));
    expect(replayed(nested).entries).toEqual([entry(1)]);
  });

  it("keeps what an earlier process wrote and appends after it", () => {
    const first = journalAt();
    first.append(entry(1));
    first.close();
    const second = journalAt();
    expect(second.bytes()).toBe(statSync(path).size);
    second.append(entry(2));
    expect(replayed().entries).toEqual([entry(1), entry(2)]);
  });

  it("reads a line cut short at the end as a tail, not an entry", () => {
    writeFileSync(path, `${lineOf(entry(1))}${lineOf(entry(2))}{"t":"e","n":3,"te`);
    expect(replayed()).toMatchObject({ entries: [entry(1), entry(2)], lines: 2, tail: 18 });
  });

  it("cuts a torn last line off when it opens, so the next entry is never glued to it", () => {
    writeFileSync(path, `${lineOf(entry(1))}{"t":"e","n":2`);
    const journal = journalAt();
    journal.append(entry(3));
    journal.append(entry(4));
    expect(readFileSync(path, "utf8")).toBe(
      `${lineOf(entry(1))}${lineOf(entry(3))}${lineOf(entry(4))}`,
    );
    expect(journal.bytes()).toBe(statSync(path).size);
    expect(logged).toEqual([{ type: "ledger_tail_cut", bytes: 14 }]);
  });

  it("adds nothing to a file that ends with a whole line", () => {
    writeFileSync(path, lineOf(entry(1)));
    const size = statSync(path).size;
    const journal = journalAt();
    expect(journal.bytes()).toBe(size);
    expect(statSync(path).size).toBe(size);
    expect(logged).toEqual([]);
  });

  it("rewrite keeps only the entries given, through a new file renamed over the old", () => {
    const journal = journalAt();
    for (let n = 1; n <= 5; n++) journal.append(entry(n, "x".repeat(100)));
    const before = statSync(path).size;
    expect(journal.rewrite([entry(2), entry(4)])).toBe(true);
    expect(replayed().entries).toEqual([entry(2), entry(4)]);
    expect(statSync(path).size).toBeLessThan(before);
    expect(journal.bytes()).toBe(statSync(path).size);
    expect(existsSync(`${path}.next`)).toBe(false);
  });

  it("appends to the rewritten file, and so does the next process", () => {
    const journal = journalAt();
    journal.append(entry(1));
    journal.append(entry(2));
    journal.rewrite([entry(2)]);
    journal.append(entry(3));
    expect(replayed().entries).toEqual([entry(2), entry(3)]);
    expect(journal.bytes()).toBe(statSync(path).size);
    journal.close();

    const reopened = journalAt();
    expect(reopened.bytes()).toBe(statSync(path).size);
    reopened.append(entry(4));
    reopened.rewrite([entry(3), entry(4)]);
    reopened.append(entry(5));
    reopened.close();
    expect(replayed().entries).toEqual([entry(3), entry(4), entry(5)]);
  });

  it("rewrites to an empty file when nothing is alive", () => {
    const journal = journalAt();
    journal.append(entry(1));
    journal.rewrite([]);
    expect(statSync(path).size).toBe(0);
    expect(journal.bytes()).toBe(0);
    journal.append(entry(2));
    expect(replayed().entries).toEqual([entry(2)]);
  });

  it("says which lines it skipped, by number, and reads on", () => {
    writeFileSync(path, `${lineOf(entry(1))}{"t":"e"\n\n`);
    appendFileSync(path, `not json at all\n${lineOf(entry(3))}`);
    const result = replayed();
    expect(result.entries).toEqual([entry(1), entry(3)]);
    expect(result.bad).toEqual([2, 4]);
    expect(result.skipped).toBe(2);
  });

  it("reads lines longer than its chunk, and skips one longer than any entry", () => {
    const long = entry(2, "x".repeat(3 * 1024 * 1024));
    writeFileSync(path, `${lineOf(entry(1))}${lineOf(long)}`);
    // Past the limit: counted and skipped without being kept in memory.
    const fd = fs.openSync(path, "a");
    const block = Buffer.alloc(1024 * 1024, 0x78);
    for (let written = 0; written <= MAX_LINE_BYTES; written += block.length)
      fs.writeSync(fd, block);
    fs.writeSync(fd, `\n${lineOf(entry(4))}`);
    fs.closeSync(fd);
    const result = replayed();
    expect(result.entries.map((each) => each.n)).toEqual([1, 2, 4]);
    expect(result.entries[1]).toEqual(long);
    expect(result.bad).toEqual([3]);
  });
});

describe("a disk that refuses writes", () => {
  it("never throws: the file is cut back to whole lines and the entries are held", () => {
    const disk = flakyDisk();
    const journal = journalAt(path, { fs: disk.fs, retryEveryMs: 60_000 });
    journal.append(entry(1));
    disk.refuse = "ENOSPC";
    disk.room = 7;
    expect(() => journal.append(entry(2, "y".repeat(50)))).not.toThrow();
    expect(() => journal.append(entry(3))).not.toThrow();
    // Seven bytes of entry 2 went in, and were cut off again.
    expect(readFileSync(path, "utf8")).toBe(lineOf(entry(1)));
    expect(journal.state()).toMatchObject({ failing: "ENOSPC", held: 2 });
    expect(logged.map((line) => line.type)).toEqual(["ledger_failing"]);
    expect(logged[0]).toMatchObject({ code: "ENOSPC" });
  });

  it("writes what it held, in order, once the disk takes writes again, and says so once", async () => {
    const disk = flakyDisk();
    const journal = journalAt(path, { fs: disk.fs, retryEveryMs: 20 });
    journal.append(entry(1));
    disk.refuse = "ENOSPC";
    for (let n = 2; n <= 5; n++) journal.append(entry(n));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(journal.state().held).toBe(4);
    disk.refuse = null;
    await vi.waitFor(() => expect(journal.state().failing).toBeNull(), SETTLED);
    journal.append(entry(6));
    expect(replayed().entries.map((each) => each.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(journal.state()).toMatchObject({ failing: null, held: 0 });
    expect(logged.map((line) => line.type)).toEqual(["ledger_failing", "ledger_recovered"]);
    expect(logged[1]).toMatchObject({ written: 4 });
    expect(journal.bytes()).toBe(statSync(path).size);
  });

  it("past its memory bound, lets the held lines go and writes the live state afresh", async () => {
    const disk = flakyDisk();
    const alive = [entry(1), entry(2, "z".repeat(100)), entry(3, "z".repeat(100))];
    const journal = journalAt(path, {
      fs: disk.fs,
      retryEveryMs: 20,
      maxHeldBytes: 150,
      snapshot: () => alive,
    });
    journal.append(alive[0] as Entry);
    disk.refuse = "EIO";
    journal.append(alive[1] as Entry);
    journal.append(alive[2] as Entry);
    expect(journal.state().held).toBe(0);
    disk.refuse = null;
    await vi.waitFor(() => expect(journal.state().failing).toBeNull(), SETTLED);
    expect(replayed().entries).toEqual(alive);
  });

  it("writes the live state afresh after a flush that failed: the kernel may have lost it", async () => {
    const disk = flakyDisk();
    const journal = journalAt(path, { fs: disk.fs, retryEveryMs: 20, snapshot: () => [entry(9)] });
    journal.append(entry(1));
    disk.failFlush = true;
    await vi.waitFor(() => expect(journal.state().failing).toBe("EIO"), SETTLED);
    disk.failFlush = false;
    await vi.waitFor(() => expect(journal.state().failing).toBeNull(), SETTLED);
    expect(replayed().entries).toEqual([entry(9)]);
  });

  it("keeps the old file when a rewrite fails, and says so once until one succeeds", () => {
    const disk = flakyDisk();
    const journal = journalAt(path, { fs: disk.fs, retryEveryMs: 60_000 });
    journal.append(entry(1));
    disk.refuse = "ENOSPC";
    expect(journal.rewrite([entry(1), entry(2)])).toBe(false);
    expect(journal.rewrite([entry(1), entry(2)])).toBe(false);
    expect(existsSync(`${path}.next`)).toBe(false);
    expect(replayed().entries).toEqual([entry(1)]);
    disk.refuse = null;
    expect(journal.rewrite([entry(2)])).toBe(true);
    expect(replayed().entries).toEqual([entry(2)]);
    expect(logged.map((line) => line.type)).toEqual([
      "ledger_rewrite_failed",
      "ledger_rewrite_recovered",
    ]);
  });

  it("a rewrite that succeeds while failing writes everything alive and ends the failure", () => {
    const disk = flakyDisk();
    const journal = journalAt(path, { fs: disk.fs, retryEveryMs: 60_000 });
    disk.refuse = "ENOSPC";
    journal.append(entry(1));
    disk.refuse = null;
    expect(journal.rewrite([entry(1)])).toBe(true);
    expect(journal.state()).toMatchObject({ failing: null, held: 0 });
    journal.append(entry(2));
    expect(replayed().entries).toEqual([entry(1), entry(2)]);
  });

  it("tries what it holds once more when closed, and says what it could not write", () => {
    const disk = flakyDisk();
    const journal = journalAt(path, { fs: disk.fs, retryEveryMs: 60_000 });
    disk.refuse = "ENOSPC";
    journal.append(entry(1));
    journal.close();
    expect(logged.at(-1)).toMatchObject({ type: "ledger_closed_failing", held: 1 });

    const second = journalAt(path, { fs: disk.fs, retryEveryMs: 60_000 });
    second.append(entry(2));
    disk.refuse = null;
    second.close();
    expect(replayed().entries).toEqual([entry(2)]);
  });
});

describe("memoryJournal", () => {
  it("counts the bytes its lines would take, and starts again on rewrite", () => {
    const journal = memoryJournal<Entry>();
    expect(journal.bytes()).toBe(0);
    journal.append(entry(1));
    const line = JSON.stringify(entry(1)).length + 1;
    expect(journal.bytes()).toBe(line);
    journal.append(entry(2));
    expect(journal.bytes()).toBe(2 * line);
    journal.rewrite([entry(1)]);
    expect(journal.bytes()).toBe(line);
    journal.close();
  });
});
