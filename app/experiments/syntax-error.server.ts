/**
 * Where a JSON or YAML file stops being valid, said without quoting it: a line, a column and what
 * was expected there. The parsers' own messages quote the file ("Unexpected token 'k', "{"sk_l"...
 * is not valid JSON"), and the file may hold anything, a secret pasted in the wrong place too.
 */
import { type Document, LineCounter, parseDocument, visit } from "yaml";

export type SyntaxProblem = { line: number; column: number; problem: string };

/** Line and column (from 1, in characters) of the UTF-16 offset `at` in `text`. */
export function lineAndColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let i = 0; i < at && i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a) {
      line += 1;
      column = 1;
    } else if (code < 0xdc00 || code > 0xdfff) {
      // The second half of a surrogate pair is the same character.
      column += 1;
    }
  }
  return { line, column };
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPED = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const HEX4 = /[0-9A-Fa-f]{4}/y;

/**
 * The first place `text` breaks JSON's grammar (RFC 8259), or null for valid JSON. Iterative, so
 * that a file nested thousands deep is an answer, not a stack overflow.
 */
export function jsonSyntaxError(text: string): SyntaxProblem | null {
  let i = 0;
  const stack: ("{" | "[")[] = [];
  const at = (problem: string, offset = i): SyntaxProblem => ({
    ...lineAndColumn(text, offset),
    problem,
  });
  const skipSpace = () => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i += 1;
  };
  /** A string at i, consumed; or what is wrong with it. */
  const string = (): SyntaxProblem | null => {
    const start = i;
    i += 1;
    for (;;) {
      const char = text[i];
      if (char === undefined) return at("a text in quotes that is never closed", start);
      if (char === '"') {
        i += 1;
        return null;
      }
      if (char === "\\") {
        const next = text[i + 1];
        if (next === "u") {
          HEX4.lastIndex = i + 2;
          if (!HEX4.test(text)) return at("a \\u escape without four hexadecimal digits");
          i += 6;
        } else if (next !== undefined && ESCAPED.has(next)) {
          i += 2;
        } else {
          return at("a backslash that starts no escape JSON knows");
        }
        continue;
      }
      if (char.charCodeAt(0) < 0x20) return at("a line break or control character inside quotes");
      i += 1;
    }
  };
  /** A field name and its colon, consumed; or what is wrong. */
  const key = (): SyntaxProblem | null => {
    skipSpace();
    if (text[i] !== '"') return at("expected a field name in double quotes");
    const wrong = string();
    if (wrong) return wrong;
    skipSpace();
    if (text[i] !== ":") return at("expected : after a field name");
    i += 1;
    return null;
  };

  if (text.charCodeAt(0) === 0xfeff)
    return at("a byte order mark before the JSON: save without one");
  let expectValue = true;
  for (;;) {
    skipSpace();
    if (expectValue) {
      const char = text[i];
      if (char === undefined) return at("the file ends where a value should be");
      expectValue = false;
      if (char === "{" || char === "[") {
        i += 1;
        skipSpace();
        if (text[i] === (char === "{" ? "}" : "]")) {
          i += 1;
          continue;
        }
        stack.push(char);
        expectValue = true;
        if (char === "{") {
          const wrong = key();
          if (wrong) return wrong;
        }
        continue;
      }
      if (char === '"') {
        const wrong = string();
        if (wrong) return wrong;
        continue;
      }
      const word = ["true", "false", "null"].find((literal) => text.startsWith(literal, i));
      if (word) {
        i += word.length;
        continue;
      }
      NUMBER.lastIndex = i;
      if (NUMBER.test(text)) {
        i = NUMBER.lastIndex;
        continue;
      }
      return at(
        "expected a value: an object, a list, a text in double quotes, a number, true, false or null",
      );
    }
    const open = stack.at(-1);
    const char = text[i];
    if (open === undefined) return char === undefined ? null : at("more after the end of the JSON");
    const close = open === "{" ? "}" : "]";
    if (char === undefined) return at(`the file ends before a ${close} closes what it opened`);
    if (char === close) {
      i += 1;
      stack.pop();
    } else if (char === ",") {
      i += 1;
      expectValue = true;
      if (open === "{") {
        const wrong = key();
        if (wrong) return wrong;
      }
    } else {
      return at(`expected , or ${close} after a value`);
    }
  }
}

/** What each of the yaml package's error codes means, in words that quote nothing. */
const YAML_PROBLEMS: Record<string, string> = {
  BAD_INDENT: "indentation that does not line up",
  BLOCK_AS_IMPLICIT_KEY: "a block where a key should be (a missing line break or indentation?)",
  DUPLICATE_KEY: "a key given twice",
  MISSING_CHAR: "a closing quote or bracket missing",
  MULTIPLE_DOCS: "more than one document",
  TAB_AS_INDENT: "a tab as indentation",
  UNEXPECTED_TOKEN: "something unexpected",
};

/**
 * The YAML document in `text`, or where its first problem is. Aliases count as one: they can
 * make a small file huge. The document never prints a warning (an unknown tag, a list as a key):
 * the yaml package would put it on stderr with the line it is about.
 */
export function parseYamlQuietly(text: string): { doc: Document } | { error: SyntaxProblem } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { logLevel: "error", lineCounter: lines });
  const first = doc.errors[0];
  if (first) {
    const offset = first.pos[0];
    const problem = YAML_PROBLEMS[first.code] ?? first.code.toLowerCase().replaceAll("_", " ");
    return { error: { ...position(lines, offset), problem } };
  }
  let alias: number | undefined;
  visit(doc, {
    Alias(_, node) {
      alias = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  if (alias !== undefined) {
    return {
      error: { ...position(lines, alias), problem: "an alias (*), which this file may not use" },
    };
  }
  return { doc };
}

function position(lines: LineCounter, offset: number): { line: number; column: number } {
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}
