/**
 * A graceful, bounded shutdown for the process remix-serve runs.
 *
 * remix-serve answers SIGTERM and SIGINT with `server.close()` and nothing else. That stops new
 * connections and closes idle keep-alive ones, but in Node 20 a keep-alive connection that is busy
 * at that moment goes on being served, with `Connection: keep-alive`, for as long as its client
 * keeps asking: under load the process never ends. And nothing bounds how long the analytics
 * queue may take, or says when the process is done. So, once per process, on the first signal:
 *
 * - every response not yet started says `Connection: close`, so a busy connection ends after
 *   the request it is on; one that goes idle is closed after about 1.25 s (Node closes the ones idle
 *   at the signal at once);
 * - the shutdown hooks (the analytics queue) flush, together for at most 5 s from the signal: once
 *   at once, and again when the last request has finished, for what those requests recorded;
 * - the process exits with 0 as soon as the HTTP server has closed and the flush is done, and
 *   in any case 9 s after the signal, inside the 10 s a container runtime waits before SIGKILL.
 *
 * The server is found through Node's `http.server.request.start` diagnostics channel, which
 * names the server of every request: remix-serve creates it out of our reach.
 */
import diagnostics from "node:diagnostics_channel";
import type { Server, ServerResponse } from "node:http";

export const FLUSH_DEADLINE_MS = 5000;
export const EXIT_DEADLINE_MS = 9000;
/**
 * After the signal, how long a keep-alive connection may sit idle before it is closed (Node adds
 * a second of its own, for requests already on their way).
 */
export const DRAIN_KEEP_ALIVE_MS = 250;
const SIGNALS = ["SIGTERM", "SIGINT"] as const;

export type ShutdownHooks = {
  /** Sends what is pending, resolving within `deadlineMs`; may be called more than once. */
  flush: (deadlineMs: number) => Promise<void>;
  /** Runs right before the process exits: account for what is left, log it. Synchronous. */
  beforeExit?: () => void;
};

export type Shutdown = {
  /** Registers hooks for the shutdown; returns a function that removes them. */
  register: (hooks: ShutdownHooks) => () => void;
  /** What a signal does. Resolves once the process has been told to exit. */
  begin: (reason: string) => Promise<void>;
  stopping: () => boolean;
  /** Stops listening to requests and signals (tests). */
  dispose: () => void;
};

type Options = {
  /** Where signals come from: `process`, or a stand-in in tests. */
  signals?: NodeJS.EventEmitter;
  exit: (code: number) => void;
  log: (line: string) => void;
  flushDeadlineMs?: number;
  exitDeadlineMs?: number;
};

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
}

export function createShutdown(options: Options): Shutdown {
  const flushDeadlineMs = options.flushDeadlineMs ?? FLUSH_DEADLINE_MS;
  const exitDeadlineMs = options.exitDeadlineMs ?? EXIT_DEADLINE_MS;
  const servers = new Map<Server, Promise<void>>();
  /** Responses being written, so that those still to start can say the connection ends. */
  const active = new Set<ServerResponse>();
  const hooks = new Set<ShutdownHooks>();
  let started: Promise<void> | null = null;
  let exited = false;

  const onRequest = (message: unknown) => {
    const { server, response } = message as { server: Server; response: ServerResponse };
    if (!servers.has(server)) {
      servers.set(server, new Promise((resolve) => server.once("close", () => resolve())));
    }
    if (started) {
      // Tell the client this connection ends with this answer.
      response.setHeader("Connection", "close");
      return;
    }
    active.add(response);
    response.once("close", () => active.delete(response));
  };
  diagnostics.subscribe("http.server.request.start", onRequest);

  const flushAll = (deadlineMs: number) =>
    Promise.all(
      [...hooks].map((hook) =>
        hook.flush(deadlineMs).catch((error: unknown) => {
          options.log(JSON.stringify({ type: "shutdown_error", error: String(error) }));
        }),
      ),
    );

  function exit(reason: string, forced: boolean, at: number) {
    if (exited) return;
    exited = true;
    for (const hook of hooks) {
      try {
        hook.beforeExit?.();
      } catch (error) {
        options.log(JSON.stringify({ type: "shutdown_error", error: String(error) }));
      }
    }
    const open = [...servers.keys()].filter((server) => server.listening).length;
    options.log(
      JSON.stringify({
        type: "shutdown",
        signal: reason,
        ms: Math.round(performance.now() - at),
        forced,
        ...(open > 0 ? { servers_still_listening: open } : {}),
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
    for (const server of servers.keys()) {
      if (server.keepAliveTimeout === 0 || server.keepAliveTimeout > DRAIN_KEEP_ALIVE_MS)
        server.keepAliveTimeout = DRAIN_KEEP_ALIVE_MS;
    }
    // remix-serve closes its server on this same signal; close any that nobody else did.
    setImmediate(() => {
      for (const server of servers.keys()) if (server.listening) server.close();
    });
    const closed = Promise.all(servers.values());
    const firstPass = flushAll(left());
    await Promise.race([closed, sleep(left())]);
    await firstPass;
    // What the last requests recorded while they finished.
    if (left() > 0) await flushAll(left());
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

  const listeners = SIGNALS.map((signal) => {
    const listener = () => void begin(signal);
    options.signals?.on(signal, listener);
    return [signal, listener] as const;
  });

  return {
    register(hook) {
      hooks.add(hook);
      return () => hooks.delete(hook);
    },
    begin,
    stopping: () => started !== null,
    dispose() {
      diagnostics.unsubscribe("http.server.request.start", onRequest);
      for (const [signal, listener] of listeners) options.signals?.off(signal, listener);
    },
  };
}

const KEY = Symbol.for("darb.shutdown");
type WithShutdown = typeof globalThis & { [KEY]?: Shutdown };

/**
 * The process's shutdown, created on first use. Once per process, not per module instance: a
 * re-imported build (remix dev) must not add a second set of signal handlers.
 */
export function processShutdown(): Shutdown {
  const holder = globalThis as WithShutdown;
  holder[KEY] ??= createShutdown({
    signals: process,
    exit: (code) => process.exit(code),
    log: (line) => console.log(line),
  });
  return holder[KEY];
}
