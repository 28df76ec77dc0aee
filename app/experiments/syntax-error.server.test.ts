import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  jsonSyntaxError,
  lineAndColumn,
  parseYamlQuietly,
} from "~/experiments/syntax-error.server";

const valid = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** Valid JSON with a few characters put in, taken out or swapped: mostly broken, somewhere. */
const damagedJson = fc
  .tuple(
    fc.json({ maxDepth: 3 }),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat({ max: 2 }),
        fc.constantFrom(...'{}[],:"\\ \n\t0-.eEtfnu', "true", "nul", "\u0001", "\uFEFF", "é"),
      ),
      { maxLength: 3 },
    ),
  )
  .map(([json, edits]) =>
    edits.reduce((text, [at, cut, insert]) => {
      const i = at % (text.length + 1);
      return `${text.slice(0, i)}${insert}${text.slice(i + cut)}`;
    }, json),
  );

describe("jsonSyntaxError", () => {
  it("finds a problem exactly when JSON.parse refuses the text", () => {
    fc.assert(
      fc.property(fc.oneof(damagedJson, fc.json(), fc.string({ maxLength: 30 })), (text) => {
        expect(jsonSyntaxError(text) === null, JSON.stringify(text)).toBe(valid(text));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['{"experiments": [', 1, 18, "the file ends where a value should be"],
    ['{"a": 1,}', 1, 9, "expected a field name in double quotes"],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, "expected , or } after a value"],
    ['{"a" 1}', 1, 6, "expected : after a field name"],
    ['{"a": tru}', 1, 7, "expected a value"],
    ['{"a": "open', 1, 7, "a text in quotes that is never closed"],
    ['{"a": "x\ny"}', 1, 9, "a line break or control character inside quotes"],
    ['{"a": "\\q"}', 1, 8, "a backslash that starts no escape"],
    ["[1, 2", 1, 6, "the file ends before a ] closes"],
    ["{} {}", 1, 4, "more after the end of the JSON"],
    ["\uFEFF{}", 1, 1, "a byte order mark"],
    ['["é", 01]', 1, 8, "expected , or ] after a value"],
  ])("%j: line %i, column %i: %s", (text, line, column, problem) => {
    expect(valid(text)).toBe(false);
    const found = jsonSyntaxError(text);
    expect(found).toMatchObject({ line, column });
    expect(found?.problem).toContain(problem);
  });

  it("answers for a file nested far deeper than a recursive reader could go", () => {
    expect(jsonSyntaxError(`${"[".repeat(200_000)}${"]".repeat(200_000)}`)).toBeNull();
    expect(jsonSyntaxError(`${"[".repeat(200_000)}`)?.problem).toContain("the file ends");
  });
});

describe("lineAndColumn", () => {
  it("counts lines from 1 and characters, not UTF-16 halves", () => {
    expect(lineAndColumn("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn("😀x", 2)).toEqual({ line: 1, column: 2 });
  });
});

describe("parseYamlQuietly", () => {
  it.each([
    ["a: 1\na: 2\n", 2, 1, "a key given twice"],
    ["a:\n\t- 1\n", 2, 1, "a tab as indentation"],
    ["experiments: &a [*a]\n", 1, 18, "an alias"],
    ["a: 'x' sk_live_abc\n", 1, 8, "something unexpected"],
  ])("%j: line %i, column %i: %s", (text, line, column, problem) => {
    const read = parseYamlQuietly(text);
    expect("error" in read && read.error).toMatchObject({ line, column });
    expect("error" in read && read.error.problem).toContain(problem);
  });

  it("reads a document, and prints nothing of what it only warns about", () => {
    // Node would print the warning on stderr with the line it is about.
    const warn = vi.spyOn(process, "emitWarning");
    const read = parseYamlQuietly("key: !sk_live_tag value\n? [a]\n: b\n");
    expect("doc" in read && read.doc.toJS()).toEqual({ key: "value", "[ a ]": "b" });
    expect(warn).not.toHaveBeenCalled();
  });
});
