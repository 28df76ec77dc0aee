/**
 * What every feature's settings share: how one is declared (its name, its zod schema, its
 * default, whether it is secret, one line on what it is), the error that stops start-up naming a
 * variable, and the readers of a value, a URL, an endpoint and a set that is all or nothing.
 * A secret's value is never shown (docs/decisions/030-settings-schema.md).
 */
import { isIP } from "node:net";
import { z } from "zod";

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
 * A URL setting's value as a URL, or what is wrong with it. The value is never shown back, not
 * even in part: a password, a token in the query, even the "port" of `redis://user:1234/x@host`
 * (a password with a / in it) can be a secret.
 */
export function urlOf(raw: string, httpsOnly: boolean): { value: URL } | { error: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return {
      error:
        "must be an absolute URL such as https://example.ae (its value is not shown: it may hold a secret)",
    };
  }
  const allowed = httpsOnly ? ["https:"] : ["https:", "http:"];
  if (!allowed.includes(url.protocol)) return { error: `must use ${allowed.join(" or ")}` };
  if (url.username || url.password) return { error: "must not contain a user name or password" };
  return { value: url };
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
export function endpoint(
  declaration: { name: string; description: string; default: string },
  base = false,
): Setting<string> {
  return setting({
    ...declaration,
    secret: true,
    schema: parsed<string>((raw) => {
      const result = urlOf(raw, false);
      if ("error" in result) return result;
      const url = result.value;
      if (url.protocol === "http:" && !isLoopbackHostname(url.hostname)) {
        return { error: "must use https: unless its host is on loopback" };
      }
      if (!base) return { value: url.href };
      if (url.search || url.hash) return { error: "must have no query or fragment" };
      return { value: url.href.replace(/\/+$/, "") };
    }),
  });
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

/**
 * A setting as its feature declares it. The schema sees the value trimmed, or the default while
 * unset; every check it makes carries the message an operator reads (`refine`'s or a custom
 * issue's), after the variable's name.
 */
export type SettingDeclaration<T> = {
  name: string;
  /** One line: what it is, for docs/settings.md. */
  description: string;
  /** Its value is never shown back, not even in part (a token, a URL with credentials). */
  secret?: boolean;
  /** Used while unset; without one an unset setting reads as null. */
  default?: string;
  schema: z.ZodType<T, z.ZodTypeDef, string>;
};

export type Setting<T> = SettingDeclaration<T> & {
  /** Its value in `env`, checked; a bad one throws a ConfigError naming it. */
  read: (env: Env) => T;
};

/** Any setting, for the lists that only need its name and words. */
// biome-ignore lint/suspicious/noExplicitAny: a list of settings of every type
export type AnySetting = Setting<any>;

/** What an operator reads when a check gave no message of its own: never zod's words. */
const UNEXPLAINED = "has a value the server cannot use";

export function setting<T>(declaration: SettingDeclaration<T> & { default: string }): Setting<T>;
export function setting<T>(declaration: SettingDeclaration<T>): Setting<T | null>;
export function setting<T>(declaration: SettingDeclaration<T>): Setting<T | null> {
  return {
    ...declaration,
    read(env) {
      const raw = read(env, declaration.name) ?? declaration.default;
      if (raw === undefined) return null;
      const result = declaration.schema.safeParse(raw);
      if (result.success) return result.data;
      throw new ConfigError(declaration.name, messageOf(declaration, raw, result.error));
    },
  };
}

/** The first failure's own message; a secret's value never in it. */
function messageOf(declaration: SettingDeclaration<unknown>, raw: string, error: z.ZodError) {
  const [issue] = error.issues;
  const message = issue?.code === "custom" && issue.message ? issue.message : UNEXPLAINED;
  // The way a value is shown back (shown), never for a secret.
  if (declaration.secret && message.includes(shown(raw))) {
    return `${UNEXPLAINED} (its value is not shown: it is a secret)`;
  }
  return message;
}

/** A check and the message an operator reads when it fails (given the value, if not secret). */
export type Rule = readonly [
  test: (raw: string) => boolean,
  message: string | ((raw: string) => string),
];

type Text = z.ZodType<string, z.ZodTypeDef, string>;

/** Text that passes every rule, in order: the first that fails is the one reported. */
export function text(...rules: Rule[]): Text {
  return rules.reduce<Text>(
    (schema, [test, message]) =>
      // Fatal: a later rule never sees a value an earlier one refused.
      schema.refine(test, (raw) => ({
        message: typeof message === "string" ? message : message(raw),
        fatal: true,
      })),
    z.string(),
  );
}

/**
 * A value that only a parse can judge (a URL, a date): `parse` returns it or the message for
 * the operator.
 */
export function parsed<T>(
  parse: (raw: string) => { value: T } | { error: string },
): z.ZodType<T, z.ZodTypeDef, string> {
  return z.string().transform((raw, context) => {
    const result = parse(raw);
    if ("value" in result) return result.value;
    context.addIssue({ code: z.ZodIssueCode.custom, message: result.error, fatal: true });
    return z.NEVER;
  });
}
