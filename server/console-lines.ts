/**
 * What a library prints through `console` (Remix's warnings, a dependency's notice) reaches the
 * log as one JSON line like every other (docs/decisions/013-log-lines.md): the printed text is a
 * bounded string field, so nothing printed can start a line of its own.
 */
import { format } from "node:util";
import { bounded, logLine, writeErrorLine, writeLogLine } from "~/platform/log-line.server";

const LEVELS = ["debug", "info", "log", "warn", "error"] as const;

/** The longest printed text one line keeps: room for an error's message and first frames. */
const MESSAGE_LIMIT = 2_000;

export function consoleAsLogLines(
  write: { out: (line: string) => void; err: (line: string) => void } = {
    out: writeLogLine,
    err: writeErrorLine,
  },
): void {
  for (const level of LEVELS) {
    const to = level === "warn" || level === "error" ? write.err : write.out;
    console[level] = (...args: unknown[]) =>
      to(logLine("console", { level, message: bounded(format(...args), MESSAGE_LIMIT) }));
  }
}
