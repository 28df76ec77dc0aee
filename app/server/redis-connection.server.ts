/**
 * The process's one connection to Redis (docs/decisions/010-shared-state-on-redis.md), made so
 * that Redis can never hold a page up: a command fails at once while there is no connection (no
 * offline queue), gets 200 ms when there is one, and after three failures in a row (a lost
 * connection: at once) Redis counts as down and is not asked again until a probe, once a second,
 * is answered. Three, not one: a process too busy to read an answer in time (a burst of renders)
 * must not take a healthy Redis for a dead one. Reconnects back off to 2 s. The operator sees one
 * line when it goes down and one when it is back, never one per request.
 */
import { Redis } from "ioredis";

/** Redis answers in well under a millisecond on a network: 200 ms means it is in trouble. */
export const COMMAND_TIMEOUT_MS = 200;
export const PROBE_INTERVAL_MS = 1000;
const MAX_RECONNECT_DELAY_MS = 2000;
/** A connection that has not answered a written command in this long is dropped and made anew. */
const SOCKET_TIMEOUT_MS = 1000;
/** What the probe writes: a write, so a read-only or full Redis is not taken for a working one. */
const PROBE_KEY = "darb:{probe}";
/** Failed commands in a row that take Redis for down while the connection stays open. */
export const FAILURES_TO_TRIP = 3;

export type RedisState = "up" | "down";

export type RedisConnection = {
  client: Redis;
  /** Whether to ask Redis now: connected, and nothing failed since the last answer. */
  usable: () => boolean;
  /** A command failed or ran out of time; the third in a row sends requests to memory. */
  failed: (error: unknown) => void;
  /** A command was answered in time. */
  answered: () => void;
  state: () => RedisState;
  /** Ends the connection for good (shutdown); no reconnect. */
  close: () => void;
};

type Options = {
  log: (line: string) => void;
  commandTimeoutMs?: number;
  probeIntervalMs?: number;
};

function reasonOf(error: unknown): string {
  return String((error as Error)?.message ?? error).slice(0, 200);
}

export function createRedisConnection(url: string, options: Options): RedisConnection {
  const probeIntervalMs = options.probeIntervalMs ?? PROBE_INTERVAL_MS;
  const client = new Redis(url, {
    commandTimeout: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    connectTimeout: 2000,
    // Nothing waits for a connection: without one, a command fails and memory answers.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // 100, 200, 400 … 2000 ms between attempts, for as long as it takes.
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 6), MAX_RECONNECT_DELAY_MS),
    connectionName: "darb-site",
  });

  let tripped = false;
  let failures = 0;
  let closed = false;
  let logged: RedisState | null = null;
  let probe: NodeJS.Timeout | undefined;

  const state = (): RedisState => (client.status === "ready" && !tripped ? "up" : "down");

  /** One line per change of state; quiet while it stays the same. */
  function report(reason?: string) {
    const now = state();
    if (closed || now === logged) return;
    logged = now;
    options.log(
      JSON.stringify(
        now === "up"
          ? { type: "shared_state", store: "redis", state: "up" }
          : { type: "shared_state", store: "redis", state: "down", fallback: "memory", reason },
      ),
    );
  }

  function scheduleProbe() {
    clearTimeout(probe);
    probe = setTimeout(async () => {
      if (closed || !tripped) return;
      try {
        await client.set(PROBE_KEY, "1", "PX", 10_000);
        tripped = false;
        failures = 0;
        report();
      } catch {
        scheduleProbe();
      }
    }, probeIntervalMs);
    probe.unref();
  }

  client.on("ready", () => {
    tripped = false;
    failures = 0;
    clearTimeout(probe);
    report();
  });
  // Every failed reconnect emits one; the state changed at the first.
  client.on("error", (error) => report(reasonOf(error)));
  client.on("close", () => report("connection closed"));

  return {
    client,
    usable: () => state() === "up",
    failed(error) {
      if (tripped || closed) return;
      // Without a connection there is nothing to wait for: the state has changed already.
      failures = client.status === "ready" ? failures + 1 : FAILURES_TO_TRIP;
      if (failures < FAILURES_TO_TRIP) return;
      tripped = true;
      report(reasonOf(error));
      scheduleProbe();
    },
    answered() {
      failures = 0;
    },
    state,
    close() {
      closed = true;
      clearTimeout(probe);
      client.disconnect();
    },
  };
}
