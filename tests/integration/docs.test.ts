// The README is a quick start that points on; the rest is in docs/. A link between them that no
// longer leads anywhere (a file moved, a heading renamed) fails here, not in a reader's hands.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/child-server";

const README = join(ROOT, "README.md");
/** How big the README may grow: a page read in a minute or two, before docs/ takes over. */
const README_MAX_BYTES = 10_000;

const markdown = [
  README,
  join(ROOT, "deploy", "README.md"),
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(ROOT, "docs", name)),
  ...readdirSync(join(ROOT, "docs", "decisions"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(ROOT, "docs", "decisions", name)),
];

/** The anchors GitHub gives a file's headings. */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/^```[\s\S]*?^```/gm, "");
  return new Set(
    [...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
      (match[1] as string)
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );
}

/** Each relative link of a file: its target file and its anchor, if any. */
function links(file: string): { target: string; anchor?: string; text: string }[] {
  const text = readFileSync(file, "utf8").replace(/^```[\s\S]*?^```/gm, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((href) => !/^[a-z]+:/.test(href))
    .map((href) => {
      const [path = "", anchor] = href.split("#");
      return { target: path ? join(dirname(file), path) : file, anchor, text: href };
    });
}

describe("README.md and docs/", () => {
  it("keep the README a quick start: at most 10,000 bytes, the two commands, pointers on", () => {
    const readme = readFileSync(README);
    expect(readme.length).toBeLessThanOrEqual(README_MAX_BYTES);
    const text = readme.toString("utf8");
    const quickStart = /^## Quick start\n([\s\S]*?)^## /m.exec(text)?.[1] ?? "";
    expect(quickStart).toMatch(/^npm start\b/m);
    expect(quickStart).toMatch(/^npm test\b/m);
    expect(text).toContain("](docs/settings.md)");
  });

  it("link only to files and headings that exist", () => {
    const broken: string[] = [];
    for (const file of markdown) {
      for (const { target, anchor, text } of links(file)) {
        const where = `${relative(ROOT, file)}: ${text}`;
        if (!existsSync(target)) broken.push(where);
        else if (anchor && target.endsWith(".md") && !anchors(target).has(anchor)) {
          broken.push(where);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
