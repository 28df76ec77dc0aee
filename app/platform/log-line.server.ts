/**
 * One log line is one JSON object (docs/decisions/013-log-lines.md). Text that came from a
 * client (a path, a header, a query value, an error message quoting them) goes in as a string
 * field: JSON escapes its line breaks and quotes, so it can never start a line of its own or
 * pass for another record, and `bounded` cuts it so that no request can write much.
 */

/** The longest client text one field keeps. */
export const FIELD_LIMIT = 200;

/** `text` cut to `limit` UTF-16 units, never between the halves of a surrogate pair. */
export function bounded(text: string, limit = FIELD_LIMIT): string {
  if (text.length <= limit) return text;
  const end = /[\uD800-\uDBFF]/.test(text[limit - 1] ?? "") ? limit - 1 : limit;
  return `${text.slice(0, end)}…`;
}

/**
 * JSON leaves U+2028, U+2029 and U+0085 raw inside strings, and some log readers break lines
 * there: written as escapes, the line is the same JSON and one line for every reader.
 */
export function oneLine(json: string): string {
  return json.replace(
    /[\u2028\u2029\u0085]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The line for a record, `type` first; a field called `type` in `fields` is dropped. */
export function logLine(type: string, fields: Record<string, unknown> = {}): string {
  const { type: _ignored, ...rest } = fields;
  return oneLine(JSON.stringify({ type, ...rest }));
}

/** The process's log: each line (already JSON) on stdout, made one line for every reader. */
export function writeLogLine(line: string): void {
  process.stdout.write(`${oneLine(line)}\n`);
}
