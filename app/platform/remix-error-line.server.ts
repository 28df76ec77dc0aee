/**
 * Remix's errors (its handleError, app/entry.server.tsx) as log lines: one line each, never
 * Remix's default of a stack on stderr with the client's text in it.
 */
import { isRouteErrorResponse } from "@remix-run/react";
import { bounded, logLine } from "~/platform/log-line.server";

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : "unknown error";
}

/**
 * What Remix's handleError is given, as one line. A refusal Remix made of a client's request
 * (a `_data` naming no route, a path no route matches) is the client's mistake: one short line,
 * no stack. Anything else is a fault of ours: its message and the first frames, bounded.
 */
export function remixErrorLine(error: unknown, request: Request): string {
  const url = new URL(request.url);
  const where = { method: request.method, path: bounded(url.pathname) };
  if (isRouteErrorResponse(error) && error.status < 500) {
    const reason = (error as { error?: unknown }).error ?? error.statusText;
    return logLine("bad_request", {
      ...where,
      status: error.status,
      reason: bounded(messageOf(reason)),
    });
  }
  const inner = isRouteErrorResponse(error)
    ? ((error as { error?: unknown }).error ?? error)
    : error;
  const frames = inner instanceof Error ? (inner.stack ?? "").split("\n").slice(1, 6) : [];
  return logLine("server_error", {
    ...where,
    error: bounded(messageOf(inner), 500),
    stack: frames.map((frame) => bounded(frame.trim())),
  });
}
