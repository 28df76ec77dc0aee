/**
 * One log line is one JSON object (docs/decisions/013-log-lines.md). Text that came from a
 * client (a path, a header, a query value, an error message quoting them) goes in as a string
 * field: JSON escapes its line breaks and quotes, so it can never start a line of its own or
 * pass for another record, and `bounded` cuts it so that no request can write much. Every line
 * the process writes says when (`time`, ISO) and which replica (`replica`: REPLICA_ID, else the
 * machine's hostname, which is the container's).
 */
import { hostname } from "node:os";

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

let replica: string | undefined;
/** The replica's name as every line carries it, JSON-quoted: REPLICA_ID, else the hostname. */
function replicaJson(): string {
  replica ??= JSON.stringify(bounded(process.env.REPLICA_ID?.trim() || hostname(), 64));
  return replica;
}

const TYPE_FIRST = /^\{"type":"(?:[^"\\]|\\.)*"/;

/**
 * The line with `time` and `replica` added after its `type` (first, so a reader can still tell a
 * line by how it starts); a line that is not a JSON object is left as it is.
 */
export function stamped(line: string, now = new Date()): string {
  if (!line.startsWith("{")) return line;
  const stamp = `"time":"${now.toISOString()}","replica":${replicaJson()}`;
  const type = TYPE_FIRST.exec(line)?.[0];
  if (type) return `${type},${stamp}${line.slice(type.length)}`;
  return line === "{}" ? `{${stamp}}` : `{${stamp},${line.slice(1)}`;
}

/** The process's log: each line (already JSON) on stdout, stamped, one line for every reader. */
export function writeLogLine(line: string): void {
  process.stdout.write(`${oneLine(stamped(line))}\n`);
}

/** The same on stderr: what stops start-up, and its warnings. */
export function writeErrorLine(line: string): void {
  process.stderr.write(`${oneLine(stamped(line))}\n`);
}
