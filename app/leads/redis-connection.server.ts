/**
 * The process's one connection to Redis (docs/decisions/010-shared-state-on-redis.md), made so
 * that Redis can never hold a page up: a command fails at once while there is no connection (no
 * offline queue) and gets 200 ms when there is one; after three failures in a row (a lost
 * connection: at once) Redis counts as down and is not asked again until a probe, once a second,
 * is answered. Reconnects back off to 2 s. The operator sees one line when it goes down and one
 * when it is back, never one per request.
 */
import type { Redis } from "ioredis";
import { requiredOnUse } from "~/platform/required-on-use.server";

const ioredis = requiredOnUse<typeof import("ioredis")>("ioredis");

/** Redis answers in well under a millisecond on a network: 200 ms means it is in trouble. */
export const COMMAND_TIMEOUT_MS = 200;
export const PROBE_INTERVAL_MS = 1000;
/**
 * Failed commands in a row that take Redis for down while the connection stays open. Three, not
 * one: a single slow answer on a busy machine must not send a replica's counting to memory.
 */
export const FAILURES_TO_TRIP = 3;
const MAX_RECONNECT_DELAY_MS = 2000;
/** A connection that has not answered a written command in this long is dropped and made anew. */
const SOCKET_TIMEOUT_MS = 1000;
/** What the probe writes: a write, so a read-only or full Redis is not taken for a working one. */
const PROBE_KEY = "darb:{probe}";

export type RedisState = "up" | "down";

export type RedisConnection = {
  client: Redis;
  /** Whether to ask Redis now: connected, and not failing. */
  usable: () => boolean;
  /** Runs commands within the timeout, keeping count of failures; rejects on any of them. */
  run: <T>(command: (client: Redis) => Promise<T>) => Promise<T>;
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

/**
 * `promise`, or a rejection after `ms`. The timeout is checked once this process has read what
 * arrived meanwhile (setImmediate runs after the poll for I/O): a burst of work that kept it from
 * reading an answer already there is not Redis being slow.
 */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new Error(`Redis did not answer within ${ms} ms`));
      });
    }, ms);
    promise.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export function createRedisConnection(url: string, options: Options): RedisConnection {
  const timeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  const probeIntervalMs = options.probeIntervalMs ?? PROBE_INTERVAL_MS;
  const client = new (ioredis().Redis)(url, {
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
        await within(client.set(PROBE_KEY, "1", "PX", 10_000), timeoutMs);
        tripped = false;
        failures = 0;
        report();
      } catch {
        scheduleProbe();
      }
    }, probeIntervalMs);
    probe.unref();
  }

  function failed(error: unknown) {
    if (tripped || closed) return;
    // Without a connection there is nothing to wait for: the state has changed already.
    failures = client.status === "ready" ? failures + 1 : FAILURES_TO_TRIP;
    if (failures < FAILURES_TO_TRIP) return;
    tripped = true;
    report(reasonOf(error));
    scheduleProbe();
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
    async run(command) {
      try {
        const answer = await within(command(client), timeoutMs);
        failures = 0;
        return answer;
      } catch (error) {
        failed(error);
        throw error;
      }
    },
    state,
    close() {
      closed = true;
      clearTimeout(probe);
      client.disconnect();
    },
  };
}
