/**
 * A graceful, bounded shutdown of the HTTP server (docs/decisions/004-own-http-server.md).
 *
 * `server.close()` stops new connections and closes idle keep-alive ones, but in Node 20 a
 * keep-alive connection that is busy at that moment goes on being served, with `Connection:
 * keep-alive`, for as long as its client keeps asking: under load the process never ends. And
 * nothing bounds how long the analytics queue may take. So, on the first signal:
 *
 * - every response not yet started says `Connection: close`, so a busy connection ends after the
 *   request it is on; idle ones are closed at once, and any that go idle later within 250 ms;
 * - the flush (the analytics queue) runs for at most 5 s from the signal: once at once, and
 *   again when the last request has finished, for what those requests recorded;
 * - the process exits 0 as soon as the server has closed and the flush is done, and in any case
 *   9 s after the signal, inside the 10 s a container runtime waits before SIGKILL.
 */
import type { Server, ServerResponse } from "node:http";
import type { RequestHandler } from "express";

export const FLUSH_DEADLINE_MS = 5000;
export const EXIT_DEADLINE_MS = 9000;
/** After the signal, how long a keep-alive connection may sit idle before it is closed. */
export const DRAIN_KEEP_ALIVE_MS = 250;

export type ShutdownHooks = {
  /** Sends what is pending, resolving within `deadlineMs`; may be called more than once. */
  flush: (deadlineMs: number) => Promise<void>;
  /** Runs right before the process exits: account for what is left, log it. Synchronous. */
  beforeExit?: () => void;
};

export type Shutdown = {
  /** Marks each response so that, once stopping, it ends its connection. Mount it first. */
  middleware: RequestHandler;
  /** What a signal does. Resolves once the process has been told to exit. */
  begin: (reason: string) => Promise<void>;
  stopping: () => boolean;
};

type Options = {
  server: Server;
  hooks: ShutdownHooks;
  exit: (code: number) => void;
  log: (line: string) => void;
  flushDeadlineMs?: number;
  exitDeadlineMs?: number;
};

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
}

export function createShutdown(options: Options): Shutdown {
  const { server, hooks } = options;
  const flushDeadlineMs = options.flushDeadlineMs ?? FLUSH_DEADLINE_MS;
  const exitDeadlineMs = options.exitDeadlineMs ?? EXIT_DEADLINE_MS;
  /** Responses being written, so that those still to start can say the connection ends. */
  const active = new Set<ServerResponse>();
  const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
  let started: Promise<void> | null = null;
  let exited = false;

  const middleware: RequestHandler = (_request, response, next) => {
    if (started) {
      response.setHeader("Connection", "close");
    } else {
      active.add(response);
      response.once("close", () => active.delete(response));
    }
    next();
  };

  const flush = (deadlineMs: number) =>
    hooks.flush(deadlineMs).catch((error: unknown) => {
      options.log(JSON.stringify({ type: "shutdown_error", error: String(error) }));
    });

  function exit(reason: string, forced: boolean, at: number) {
    if (exited) return;
    exited = true;
    try {
      hooks.beforeExit?.();
    } catch (error) {
      options.log(JSON.stringify({ type: "shutdown_error", error: String(error) }));
    }
    options.log(
      JSON.stringify({
        type: "shutdown",
        signal: reason,
        ms: Math.round(performance.now() - at),
        forced,
        ...(server.listening ? { server_still_listening: true } : {}),
      }),
    );
    options.exit(0);
  }

  async function run(reason: string, at: number) {
    const flushUntil = at + flushDeadlineMs;
    const left = () => Math.max(0, flushUntil - performance.now());
    for (const response of active) {
      if (!response.headersSent) response.setHeader("Connection", "close");
    }
    active.clear();
    server.keepAliveTimeout = DRAIN_KEEP_ALIVE_MS;
    // Stops listening and closes the connections idle right now; the rest end with their answer.
    if (server.listening) server.close();
    const firstPass = flush(left());
    await Promise.race([closed, sleep(left())]);
    await firstPass;
    // What the last requests recorded while they finished.
    if (left() > 0) await flush(left());
    await closed;
    exit(reason, false, at);
  }

  function begin(reason: string): Promise<void> {
    if (started) {
      // A second signal: the operator wants it gone now.
      exit(reason, true, performance.now());
      return started;
    }
    const at = performance.now();
    setTimeout(() => exit(reason, true, at), exitDeadlineMs).unref();
    started = run(reason, at);
    return started;
  }

  return { middleware, begin, stopping: () => started !== null };
}
