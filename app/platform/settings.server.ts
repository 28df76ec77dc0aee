/**
 * The server's own settings: where it listens, who is in front of it, what it shares with other
 * replicas, what it logs and serves from memory. Each is declared once here; app/settings.server.ts
 * puts them together with every feature's.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import { z } from "zod";
import { checkRedisDatabase } from "~/platform/redis-database.server";
import {
  ConfigError,
  type Env,
  parsed,
  setting,
  shown,
  text,
} from "~/platform/setting-readers.server";

const isPort = (raw: string) => /^\d{1,5}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 65535;

export const PORT = setting({
  name: "PORT",
  description: "the port to listen on",
  default: "3000",
  schema: text([
    isPort,
    (raw) => `must be a whole number from 1 to 65535, got ${shown(raw)}`,
  ]).transform(Number),
});

// Labels of letters, digits, "-" and "_" (Docker's service names have them), dot-separated.
const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

export const HOST = setting({
  name: "HOST",
  description: "the interface to listen on, an address of this machine; unset, every interface",
  schema: text([
    (raw) =>
      isIP(raw) !== 0 ||
      // Digits and dots only is meant as IPv4 ("999.1.1.1", "10.0.0"): it must be one.
      (!/^[\d.]+$/.test(raw) && !raw.includes(":") && HOSTNAME.test(raw)),
    (raw) => `must be a hostname or an IP address, got ${shown(raw)}`,
  ]),
});

export const ANALYTICS_SALT = setting({
  name: "ANALYTICS_SALT",
  description: "the salt of the daily cookieless visitor id, one value on every replica",
  secret: true,
  schema: text([(raw) => raw.length >= 16, "must be at least 16 characters long"]),
});

export const TRUST_PROXY = setting({
  name: "TRUST_PROXY",
  description: "how many proxies in front append to X-Forwarded-For",
  default: "0",
  schema: text([
    (raw) => /^\d{1,2}$/.test(raw),
    (raw) => `must be the number of proxies in front, such as 1, got ${shown(raw)}`,
  ]).transform(Number),
});

/**
 * A Redis 7 or Valkey server, as `redis://[user:password@]host[:port][/db]` (or `rediss://` over
 * TLS). Its value is never shown back: a password may be anywhere in it.
 */
export const REDIS_URL = setting({
  name: "REDIS_URL",
  description: "the Redis shared by replicas for the dedupe, the limits and the leads",
  secret: true,
  schema: parsed<string>((raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return {
        error:
          "must be a URL such as redis://redis:6379 or redis://:password@redis:6379/0, a password's / ? # @ : written %2F %3F %23 %40 %3A (the value is not shown: it may hold a secret)",
      };
    }
    if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
      return { error: "must use redis: or rediss:" };
    }
    if (!url.hostname) return { error: "must name a host" };
    if (!/^\/?(\d{1,2})?$/.test(url.pathname)) {
      return {
        error:
          "must end in nothing but a database number such as /0 (a password's / ? # written %2F %3F %23)",
      };
    }
    if (url.search || url.hash) {
      return {
        error: "must have no query or fragment (a password's ? and # must be written %3F and %23)",
      };
    }
    return { value: raw };
  }),
});

/** Replicas that share counting must give a visitor the same id, so the salt must be set too. */
export function readRedisUrl(env: Env, salt: string | null): string | null {
  const url = REDIS_URL.read(env);
  if (url !== null && salt === null) {
    throw new ConfigError(
      "ANALYTICS_SALT",
      "must be set when REDIS_URL is: every replica must give a visitor the same id",
    );
  }
  return url;
}

export const METRICS_PORT = setting({
  name: "METRICS_PORT",
  description: "the port of Prometheus's /metrics, apart from the site's; unset, no metrics",
  schema: text([isPort, (raw) => `must be a port from 1 to 65535, got ${shown(raw)}`]).transform(
    Number,
  ),
});

export function readMetricsPort(env: Env): number | null {
  const port = METRICS_PORT.read(env);
  if (port !== null && port === PORT.read(env)) {
    throw new ConfigError("METRICS_PORT", "must differ from PORT");
  }
  return port;
}

export const RENDER_CACHE = setting({
  name: "RENDER_CACHE",
  description: "serve the pages that are the same for everyone from memory; off renders each",
  default: "on",
  schema: z.string().transform((raw, context) => {
    if (raw === "on" || raw === "off") return raw === "on";
    context.addIssue({ code: "custom", message: `must be on or off, got ${shown(raw)}` });
    return z.NEVER;
  }),
});

/** A log switch: a line per request or per lead, 1 or 0 (the default). */
export const logSwitch = (name: string, description: string) =>
  setting({
    name,
    description,
    default: "0",
    schema: text([
      (raw) => raw === "0" || raw === "1",
      (raw) => `must be 1 or 0, got ${shown(raw)}`,
    ]).transform((raw) => raw === "1"),
  });

export const LOG_REQUESTS = logSwitch("LOG_REQUESTS", "1: one JSON line per request on stdout");

/**
 * The replica's name in every log line, so that lines gathered from several read apart. Unset,
 * the machine's hostname (a container's, which compose.yaml sets per replica), made to fit.
 */
export const REPLICA_ID = setting({
  name: "REPLICA_ID",
  description: "the name every log line carries; unset, the hostname",
  default:
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, "-")
      .slice(0, 64) || "replica",
  schema: text([
    (raw) => /^[A-Za-z0-9._-]{1,64}$/.test(raw),
    (raw) => `must be 1 to 64 letters, digits, '.', '_' or '-', got ${shown(raw)}`,
  ]),
});

/** Lookup as Node's `listen(port, host)` does it: the first address. Injectable for tests. */
export type HostLookup = (host: string) => Promise<string>;

const systemLookup: HostLookup = async (host) => (await lookup(host)).address;

/** The addresses this machine can listen on: its interfaces', the wildcards, all of 127/8. */
function isLocalAddress(address: string): boolean {
  if (address === "0.0.0.0" || address === "::") return true;
  if (isIP(address) === 4 && address.startsWith("127.")) return true;
  return Object.values(networkInterfaces()).some((list) =>
    (list ?? []).some((entry) => entry.address === address.replace(/%.*$/, "")),
  );
}

/**
 * HOST must name an address of this machine. Checked before listening, so that a name that
 * does not resolve, or an address that belongs elsewhere, ends start-up with one line like
 * every other setting instead of a `getaddrinfo` or `EADDRNOTAVAIL` stack.
 */
export async function checkListenHost(
  host: string | undefined,
  resolve: HostLookup = systemLookup,
): Promise<void> {
  if (host === undefined) return;
  let address: string;
  try {
    address = await resolve(host);
  } catch {
    throw new ConfigError("HOST", `does not resolve to an address, got ${shown(host)}`);
  }
  if (!isLocalAddress(address)) {
    throw new ConfigError(
      "HOST",
      `must be an address of this machine (or unset for every interface), got ${shown(host)}${address === host ? "" : ` (${address})`}`,
    );
  }
}

/**
 * REDIS_URL's database, when Redis answers within a second: with a database the server does not
 * have, the connection's SELECT fails and every shared key lands in database 0 without a word.
 * Redis unreachable is no error: a replica never waits for it
 * (docs/decisions/010-shared-state-on-redis.md) and counts in memory until it comes.
 */
export async function checkRedisAtStart(url: string): Promise<void> {
  const answer = await checkRedisDatabase(url, 1000);
  if (answer.status !== "out of range") return;
  const { databases } = answer;
  throw new ConfigError(
    "REDIS_URL",
    databases === null
      ? "names a database this Redis does not have (its index is out of range)"
      : `names a database this Redis does not have: it has ${databases} (0 to ${databases - 1})`,
  );
}

/** The server's settings, in the order docs/settings.md lists them. */
export const SERVER_SETTINGS = [
  PORT,
  HOST,
  ANALYTICS_SALT,
  TRUST_PROXY,
  REDIS_URL,
  METRICS_PORT,
  RENDER_CACHE,
  LOG_REQUESTS,
  REPLICA_ID,
];
