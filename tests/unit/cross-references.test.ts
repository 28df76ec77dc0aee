// Every reference in the repository's source and docs resolves, and none points outside it: a path
// it cites (`app/…`, `docs/…`) is a tracked file or folder, a markdown link reaches its file and
// heading, a decision is cited under its own number and the index says what its record says.
// Issue numbers belong to a tracker a clone does not have: a comment or doc says the reason.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

const SCANNED =
  /\.(ts|tsx|mjs|js|md|yaml|yml|json|css)$|(^|\/)Dockerfile$|^\.env\.example$|^deploy\//;
const SKIPPED = /(^|\/)(node_modules|build|server-build|\.artifacts)\/|^package-lock\.json$/;

const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter(Boolean);
const files = new Set(tracked);
const folders = new Set(
  tracked.flatMap((file) => {
    const parts = file.split("/");
    return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("/"));
  }),
);
// This file is left out: it names what it looks for.
const self = "tests/unit/cross-references.test.ts";
const scanned = tracked.filter(
  (file) => SCANNED.test(file) && !SKIPPED.test(file) && file !== self,
);
const lines = new Map(
  scanned.map((file) => [file, readFileSync(join(root, file), "utf8").split("\n")]),
);

// A path the text cites: one of the top folders, not the tail of a longer path or URL (a Remix
// route may escape a dot as `[.]`); a glob or `${…}` ends it.
const CITED_PATH =
  /(?<![\w.$/@~-])(?:docs|app|server|scripts|tests|deploy|public)\/(?:[\w.$/-]|\[\.\])*/g;
// In a doc, a path up from the doc itself, in backticks.
const RELATIVE_PATH = /`(\.\.\/[^`\s]+)`/g;
const MODULE_EXTENSIONS = ["", ".ts", ".tsx", ".js", ".mjs"];
// Cited on purpose though no clone has them: the build's output; what an operator makes beside
// deploy/compose.yaml (its .env, its experiment files); docker-image.test.ts's sample names for
// .dockerignore; and performance.md's record of a bench run from before app/lib was split.
const NOT_TRACKED =
  /^(public\/build(\/.*)?|deploy\/\.env|deploy\/experiments|app\/\.env|app\/components\/Hero\.test\.tsx|app\/lib)$/;

// "decision 026", `docs/decisions/026`: the record numbered so.
const DECISION_NUMBER = /\bdecisions? (\d{3})\b|\bdocs\/decisions\/(\d{3})\b/gi;
const decisions = new Map(
  tracked.flatMap((file) => {
    const number = /^docs\/decisions\/(\d{3})-/.exec(file)?.[1];
    return number ? [[number, file] as const] : [];
  }),
);

// A markdown link: `[text](target)`; a URL or mail is not checked.
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;

// A tracker's issue: the word "issue" or "issues" then a number, or a number after "#" in brackets.
const ISSUE_NUMBER = /\bissues?\s+(?:no\.?\s*)?#?\d+|\(#\d+\)/gi;

function cites(path: string): boolean {
  const trimmed = path
    .replace(/\$\{.*$/, "")
    .replace(/[.$]+$/, "")
    .replace(/\/+$/, "");
  if (NOT_TRACKED.test(trimmed) || /^docs\/decisions\/\d{3}$/.test(trimmed)) return true;
  return MODULE_EXTENSIONS.some((ext) => files.has(trimmed + ext)) || folders.has(trimmed);
}

function exists(path: string): boolean {
  return files.has(path) || folders.has(path);
}

/** GitHub's heading anchor: lowercase, punctuation but `-` and `_` dropped, each space a `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const line of lines.get(file) ?? []) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1] ?? "");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

function linkProblem(file: string, target: string, text: string): string | undefined {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return undefined;
  const [path = "", anchor] = target.split("#");
  const resolved = path ? normalize(join(dirname(file), decodeURI(path))).replace(/\/$/, "") : file;
  if (resolved.startsWith("..")) return `${target} points outside the repository`;
  if (!exists(resolved)) return `${target} does not exist`;
  if (anchor && resolved.endsWith(".md") && !anchors(resolved).has(anchor)) {
    return `${target}: ${resolved} has no heading #${anchor}`;
  }
  const decision = /^docs\/decisions\/(\d{3})-/.exec(resolved)?.[1];
  const named = /(?:^|\s)(\d{3})$/.exec(text)?.[1];
  if (decision && named && named !== decision) {
    return `[${text}](${target}) is decision ${decision}, not ${named}`;
  }
  return undefined;
}

/** Every problem `check` finds on a line, as "file:line: problem". */
function findings(check: (file: string, line: string) => string[]): string[] {
  const found: string[] = [];
  for (const [file, text] of lines) {
    text.forEach((line, index) => {
      for (const problem of check(file, line)) {
        found.push(`${file}:${index + 1}: ${problem}`);
      }
    });
  }
  return found;
}

describe("cross-references", () => {
  it("scans the repository's source and docs", () => {
    expect(scanned.length).toBeGreaterThan(300);
    expect(scanned).toEqual(
      expect.arrayContaining(["docs/decisions/README.md", "Dockerfile", "deploy/nginx/darb.conf"]),
    );
  });

  it("every repository path a file cites exists", () => {
    const dead = findings((file, line) => [
      ...[...line.matchAll(CITED_PATH)].map((match) => match[0]).filter((path) => !cites(path)),
      ...(file.endsWith(".md") ? [...line.matchAll(RELATIVE_PATH)] : [])
        .map((match) => match[1] ?? "")
        .filter((path) => !exists(normalize(join(dirname(file), path)).replace(/\/$/, ""))),
    ]);
    expect(dead).toEqual([]);
  });

  it("every decision cited by number exists", () => {
    const missing = findings((_file, line) =>
      [...line.matchAll(DECISION_NUMBER)]
        .filter((match) => !decisions.has(match[1] ?? match[2] ?? ""))
        .map((match) => match[0]),
    );
    expect(missing).toEqual([]);
  });

  it("every markdown link reaches its file and heading, and a decision its own number", () => {
    const dead = findings((file, line) => {
      if (!file.endsWith(".md")) return [];
      const text = (index: number) => /\[([^\]]*)$/.exec(line.slice(0, index))?.[1] ?? "";
      return [...line.matchAll(MARKDOWN_LINK)].flatMap((match) => {
        const problem = linkProblem(file, match[1] ?? "", text(match.index));
        return problem ? [problem] : [];
      });
    });
    expect(dead).toEqual([]);
  });

  it("the decisions' index gives each record's own status", () => {
    const index = (lines.get("docs/decisions/README.md") ?? []).join("\n");
    const rows = [...index.matchAll(/^\| \[(\d{3})\]\([^)]+\) \|.*\| ([^|]+) \|$/gm)];
    expect(rows.map((row) => row[1])).toEqual([...decisions.keys()].sort());
    const wrong = rows.flatMap(([, number = "", status = ""]) => {
      const record = (lines.get(decisions.get(number) ?? "") ?? []).join("\n");
      const own = /Status: ([\s\S]*?)\n\n/.exec(record)?.[1]?.replace(/\s+/g, " ") ?? "";
      // The record may say after a colon what the amendment changed.
      const same = own === status.trim() || own.startsWith(`${status.trim()}:`);
      return same ? [] : [`${number}: index "${status}", record "${own}"`];
    });
    expect(wrong).toEqual([]);
  });

  it("no comment, test name or doc names a tracker's issue number", () => {
    const cited = findings((_file, line) => [...line.matchAll(ISSUE_NUMBER)].map((m) => m[0]));
    expect(cited).toEqual([]);
  });
});
