/**
 * What every setting's reader shares (config.server.ts for the site's own, each destination's
 * module for its own): the error that stops start-up naming a variable, and the readers of a
 * value, a URL, an endpoint and a set that is all or nothing. A secret's value is never shown.
 */
import { isIP } from "node:net";

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`${variable} ${detail}`);
    this.name = "ConfigError";
  }
}

export type Env = Record<string, string | undefined>;

/** A setting's value, trimmed; undefined when unset or blank. */
export function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** Shows an operator's own value back, bounded and on one line. */
export function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/**
 * A URL setting's value is never shown back, not even in part: a password, a token in the
 * query, even the "port" of `redis://user:1234/x@host` (a password with a / in it) can be a
 * secret. Its messages say what is wrong instead.
 */
export function parseUrl(env: Env, name: string, fallback: string, httpsOnly: boolean): URL {
  const raw = read(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      name,
      "must be an absolute URL such as https://example.ae (its value is not shown: it may hold a secret)",
    );
  }
  const allowed = httpsOnly ? ["https:"] : ["https:", "http:"];
  if (!allowed.includes(url.protocol)) {
    throw new ConfigError(name, `must use ${allowed.join(" or ")}`);
  }
  if (url.username || url.password) {
    throw new ConfigError(name, "must not contain a user name or password");
  }
  return url;
}

/** localhost, all of 127.0.0.0/8 and ::1, as a URL's hostname writes them. */
export function isLoopbackHostname(hostname: string): boolean {
  if (hostname === "localhost" || hostname === "[::1]") return true;
  return isIP(hostname) === 4 && hostname.startsWith("127.");
}

/**
 * A destination's endpoint: plain http only to a stand-in on this machine (real calls carry
 * secrets). A `base` has the path of each call added to it, so no query or fragment, and no
 * trailing slash.
 */
export function parseEndpoint(env: Env, name: string, fallback: string, base = false): string {
  const url = parseUrl(env, name, fallback, false);
  if (url.protocol === "http:" && !isLoopbackHostname(url.hostname)) {
    throw new ConfigError(name, "must use https: unless its host is on loopback");
  }
  if (!base) return url.href;
  if (url.search || url.hash) throw new ConfigError(name, "must have no query or fragment");
  return url.href.replace(/\/+$/, "");
}

/**
 * A destination on only when every one of its required settings is set: none set is off, some
 * set names the first one missing.
 */
export function allOrNone(env: Env, names: readonly string[]): Record<string, string> | null {
  const values = Object.fromEntries(names.map((name) => [name, read(env, name)]));
  const set = names.filter((name) => values[name] !== undefined);
  if (set.length === 0) return null;
  const missing = names.find((name) => values[name] === undefined);
  if (missing) {
    throw new ConfigError(
      missing,
      `must be set when ${set.join(", ")} ${set.length > 1 ? "are" : "is"}`,
    );
  }
  return values as Record<string, string>;
}

/** A token sent in a header or a body: visible ASCII, no spaces. Its value is never shown back. */
export const TOKEN = (min: number, max: number) => new RegExp(`^[\\x21-\\x7e]{${min},${max}}$`);
