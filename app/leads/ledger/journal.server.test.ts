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
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  fileJournal,
  type Journal,
  memoryJournal,
  replayJournal,
} from "~/leads/ledger/journal.server";

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

function journalAt(at = path): Journal<Entry> {
  const journal = fileJournal<Entry>(at);
  open.push(journal);
  return journal;
}

function replayed(at = path) {
  const entries: Entry[] = [];
  const result = replayJournal<Entry>(at, (entry) => entries.push(entry));
  return { entries, ...result };
}

const entry = (n: number, text?: string): Entry => (text ? { t: "e", n, text } : { t: "e", n });

describe("fileJournal and replayJournal", () => {
  it("read back every entry appended, in order, one line each", () => {
    const journal = journalAt();
    // A newline inside a value stays inside its line.
    const written = [entry(1), entry(2, "two\nlines"), entry(3, "مرحبا")];
    for (const each of written) journal.append(each);
    expect(readFileSync(path, "utf8").split("\n")).toHaveLength(4);
    expect(journal.bytes()).toBe(statSync(path).size);
    expect(replayed()).toEqual({ entries: written, lines: 3, torn: 0 });
  });

  it("replays nothing from a file that is not there, and creates its directory on open", () => {
    expect(replayed(join(dir, "missing.jsonl"))).toEqual({ entries: [], lines: 0, torn: 0 });
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

  it("skips a last line cut short by a crash and counts it", () => {
    writeFileSync(
      path,
      `${JSON.stringify(entry(1))}\n${JSON.stringify(entry(2))}\n{"t":"e","n":3,"te`,
    );
    expect(replayed()).toEqual({ entries: [entry(1), entry(2)], lines: 2, torn: 1 });
  });

  it("starts the next line on a line of its own after a torn one, so it stays whole", () => {
    writeFileSync(path, `${JSON.stringify(entry(1))}\n{"t":"e","n":2`);
    const journal = journalAt();
    journal.append(entry(3));
    journal.append(entry(4));
    expect(replayed()).toEqual({ entries: [entry(1), entry(3), entry(4)], lines: 3, torn: 1 });
    expect(journal.bytes()).toBe(statSync(path).size);
  });

  it("adds nothing to a file that ends with a whole line", () => {
    writeFileSync(path, `${JSON.stringify(entry(1))}\n`);
    const size = statSync(path).size;
    const journal = journalAt();
    expect(journal.bytes()).toBe(size);
    expect(statSync(path).size).toBe(size);
  });

  it("rewrite keeps only the entries given, through a new file renamed over the old", () => {
    const journal = journalAt();
    for (let n = 1; n <= 5; n++) journal.append(entry(n, "x".repeat(100)));
    const before = statSync(path).size;
    journal.rewrite([entry(2), entry(4)]);
    expect(replayed()).toEqual({ entries: [entry(2), entry(4)], lines: 2, torn: 0 });
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
    expect(replayed()).toEqual({ entries: [entry(3), entry(4), entry(5)], lines: 3, torn: 0 });
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

  it("counts a torn line in the middle too, as a crash long ago leaves it after reopening", () => {
    writeFileSync(path, '{"t":"e","n":1}\n{"t":"e"\n');
    appendFileSync(path, '{"t":"e","n":3}\n');
    expect(replayed()).toEqual({ entries: [entry(1), entry(3)], lines: 2, torn: 1 });
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
