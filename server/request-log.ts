/**
 * One JSON line per request on stdout, only when asked (LOG_REQUESTS=1): method, path (no query,
 * which carries campaign values), status, bytes and milliseconds. Off by default: a text line
 * per request cost a fifth of a cached page's CPU, and platforms log requests at their edge.
 */
import type { RequestHandler } from "express";
import { bounded, logLine } from "~/platform/log-line.server";

export function requestLog(write: (line: string) => void): RequestHandler {
  return (request, response, next) => {
    const started = performance.now();
    response.once("finish", () => {
      write(
        logLine("request", {
          method: request.method,
          path: bounded(request.originalUrl.split("?", 1)[0] ?? ""),
          status: response.statusCode,
          bytes: Number(response.getHeader("content-length")) || undefined,
          ms: Math.round((performance.now() - started) * 10) / 10,
        }),
      );
    });
    next();
  };
}
