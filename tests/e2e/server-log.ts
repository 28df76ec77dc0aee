import { readFileSync } from "node:fs";
import { serverLog } from "../../playwright.config";

export type LoggedEvent = { name: string; params: Record<string, unknown>; client_id: string };

function read(): LoggedEvent[] {
  let text = "";
  try {
    text = readFileSync(serverLog, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.startsWith('{"type":"analytics"'))
    .map((line) => JSON.parse(line) as LoggedEvent);
}

/** The analytics events the server recorded for one campaign source (each test uses its own). */
export function eventsFor(source: string): LoggedEvent[] {
  return read().filter((event) => event.params.source === source);
}

export const uniqueSource = (label: string) =>
  `e2e-${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
