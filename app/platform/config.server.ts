import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import { resolve } from "node:path";
import type { Configured, Moment, Stage } from "~/analytics/destinations/destination.server";
import { readDestinations } from "~/analytics/destinations/registry.server";
import type { Experiment } from "~/experiments/experiment";
import { ExperimentsFileError, readExperimentsFile } from "~/experiments/experiments-file.server";
import { logLine, writeErrorLine } from "~/platform/log-line.server";
import { checkRedisDatabase } from "~/platform/redis-database.server";
import {
  ConfigError,
  type Env,
  isLoopbackHostname,
  parseUrl,
  read,
  shown,
  TOKEN,
} from "~/platform/setting-readers.server";

export { ConfigError, isLoopbackHostname };

/**
 * Every setting comes from the environment, with a default that works on a laptop.
 * A bad value stops the server at start-up with one line naming the variable: an operator
 * must never find out from a visitor that SITE_URL was mistyped.
 */

export type Config = {
  port: number;
  /** Interface to listen on; undefined means every interface. */
  host: string | undefined;
  /** Origin plus optional base path, without a trailing slash. */
  siteUrl: string;
  /** International format, digits only, as wa.me wants it. */
  whatsappNumber: string;
  contactEmail: string;
  /** As shown to visitors. */
  contactPhone: string;
  demoUrl: string;
  /** A fixed end of the beta; null means "two days after page load" (the spec's default). */
  betaClosesAt: Date | null;
  /**
   * Where leads go, each with its settings read: GA4 and the ad networks the settings turn on
   * (analytics/destinations/registry.server.ts), in the registry's order.
   */
  destinations: Configured[];
  /** What each moment of a lead is worth, in AED (LEAD_VALUE_AED); 0 unless set. */
  leadValues: LeadValues;
  /** The bearer token of POST /api/leads/stage (LEADS_API_TOKEN); null: the route is off. */
  leadsApiToken: string | null;
  /** Null means a random salt per process: private, but visitors are not joined across instances. */
  analyticsSalt: string | null;
  /** How many proxies (load balancers) in front of us append to X-Forwarded-For. */
  trustProxy: number;
  /**
   * Where replicas share lead counting and limits (redis:// or rediss://, credentials allowed);
   * null: each process keeps them in its own memory (docs/decisions/010-shared-state-on-redis.md).
   */
  redisUrl: string | null;
  /** Where the lead ledger is kept on disk (docs/decisions/015-lead-ledger.md). */
  dataDir: string;
  /** Days a lead and its chats are kept before they are erased. */
  leadRetentionDays: number;
  /** The WhatsApp Business webhook, opt-in: both set, or neither. */
  whatsapp: { verifyToken: string; appSecret: string } | null;
  /** The port /metrics is served on, apart from the site; null: no metrics. */
  metricsPort: number | null;
  /** Serve the pages that are the same for everyone from memory (off: render every request). */
  renderCache: boolean;
  /** One JSON line per request on stdout (LOG_REQUESTS=1); off by default. */
  logRequests: boolean;
  /** One JSON line per lead counted on stdout (LOG_LEADS=1); off by default. */
  logLeads: boolean;
  /** The name every log line carries, telling replicas apart (REPLICA_ID; the hostname). */
  replicaId: string;
  /**
   * The tests of the landing page's copy (EXPERIMENTS_FILE); none without a file
   * (docs/decisions/022-experiments.md). At most one is running.
   */
  experiments: Experiment[];
  /**
   * The contact settings still at .env.example's samples, unset or written as it writes them: a
   * laptop's start-up warns about them, a public SITE_URL refuses them.
   */
  samples: string[];
  /** False when SITE_URL is unset: every absolute link then points at localhost. */
  siteUrlSet: boolean;
  /**
   * The company behind the site, for the footer, the legal pages and the Organization JSON-LD;
   * each null while unset, and then nothing is shown in its place (never a sample).
   */
  company: Company;
};

export type Company = { name: string | null; licence: string | null; address: string | null };

/** Sample contact details from `.env.example`: good for trying the site, not for launch. */
export const SAMPLE_SETTINGS = {
  WHATSAPP_NUMBER: "971585550134",
  CONTACT_EMAIL: "hello@darb.ae",
  CONTACT_PHONE: "+971 4 555 0134",
  DEMO_URL: "https://demo.darb.ae/",
} as const;

type SampleSetting = keyof typeof SAMPLE_SETTINGS;
const SAMPLE_NAMES = Object.keys(SAMPLE_SETTINGS) as SampleSetting[];

function parsePort(env: Env): number {
  const raw = read(env, "PORT");
  if (raw === undefined) return 3000;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    throw new ConfigError("PORT", `must be a whole number from 1 to 65535, got ${shown(raw)}`);
  }
  return Number(raw);
}

// Labels of letters, digits, "-" and "_" (Docker's service names have them), dot-separated.
const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

function parseHost(env: Env): string | undefined {
  const raw = read(env, "HOST");
  if (raw === undefined) return undefined;
  const valid =
    isIP(raw) !== 0 ||
    // Digits and dots only is meant as IPv4 ("999.1.1.1", "10.0.0"): it must be one.
    (!/^[\d.]+$/.test(raw) && !raw.includes(":") && HOSTNAME.test(raw));
  if (!valid) {
    throw new ConfigError("HOST", `must be a hostname or an IP address, got ${shown(raw)}`);
  }
  return raw;
}

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

function parseSiteUrl(env: Env): string {
  const url = parseUrl(env, "SITE_URL", "http://localhost:3000", false);
  if (url.search || url.hash) {
    throw new ConfigError("SITE_URL", "must not have a query or fragment");
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function parseWhatsapp(env: Env): string {
  const raw = read(env, "WHATSAPP_NUMBER") ?? SAMPLE_SETTINGS.WHATSAPP_NUMBER;
  // Accept the ways people write numbers ("+971 58-555 0134", "00971…"); keep what wa.me wants.
  const digits = raw.replace(/[\s().-]/g, "").replace(/^(\+|00)/, "");
  if (!/^[1-9]\d{7,14}$/.test(digits)) {
    throw new ConfigError(
      "WHATSAPP_NUMBER",
      `must be an international number such as 971585550134, got ${shown(raw)}`,
    );
  }
  return digits;
}

function parseEmail(env: Env): string {
  const raw = read(env, "CONTACT_EMAIL") ?? SAMPLE_SETTINGS.CONTACT_EMAIL;
  // Strict on purpose: the address goes into mailto: links and must not carry headers or spaces.
  if (!/^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(raw)) {
    throw new ConfigError("CONTACT_EMAIL", `must be a plain e-mail address, got ${shown(raw)}`);
  }
  return raw;
}

function parsePhone(env: Env): string {
  const raw = read(env, "CONTACT_PHONE") ?? SAMPLE_SETTINGS.CONTACT_PHONE;
  const digits = raw.replace(/\D/g, "");
  if (!/^\+?[0-9 ()-]+$/.test(raw) || digits.length < 7 || digits.length > 15) {
    throw new ConfigError(
      "CONTACT_PHONE",
      `must be a phone number such as +971 4 555 0134, got ${shown(raw)}`,
    );
  }
  return raw;
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * An ISO 8601 date or date-time. Without an offset the time is Dubai's (UTC+4, no DST), so
 * BETA_CLOSES_AT=2026-06-15 means midnight in Dubai, which is what a marketer means.
 */
export function parseDubaiDate(raw: string): Date | null {
  const match = ISO_DATE.exec(raw);
  if (!match) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", offset] = match;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset ?? "+04:00"}`);
  if (Number.isNaN(date.getTime())) return null;
  // Reject dates JavaScript silently rolls over, such as 2026-02-31.
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return date;
}

function parseBetaClosesAt(env: Env): Date | null {
  const raw = read(env, "BETA_CLOSES_AT");
  if (raw === undefined) return null;
  const date = parseDubaiDate(raw);
  if (!date) {
    throw new ConfigError(
      "BETA_CLOSES_AT",
      `must be an ISO date such as 2026-06-15 or 2026-06-15T18:00+04:00, got ${shown(raw)}`,
    );
  }
  return date;
}

/** The top-level names RFC 2606 and RFC 6761 reserve: never a site on the internet. */
const RESERVED_TLDS = new Set(["example", "test", "invalid", "localhost"]);
const RESERVED_DOMAINS = ["example.com", "example.net", "example.org"];

/** Addresses no visitor on the internet reaches: unspecified, private, link-local. */
function isPrivateAddress(hostname: string): boolean {
  if (isIP(hostname) === 4) {
    const [a = 0, b = 0] = hostname.split(".").map(Number);
    return (
      a === 0 ||
      a === 10 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254)
    );
  }
  const v6 = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return isIP(v6) === 6 && (v6 === "::" || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6));
}

/**
 * Whether SITE_URL is the address of a site visitors reach: not loopback, not a private address,
 * not a single label (a machine's or a container's own name) and not a name reserved for
 * examples and tests (darb.example, site.test, example.com). Only then is it a production deploy.
 */
export function isPublicSiteUrl(siteUrl: string): boolean {
  const host = new URL(siteUrl).hostname.toLowerCase().replace(/\.$/, "");
  if (isLoopbackHostname(host) || isPrivateAddress(host)) return false;
  if (isIP(host.replace(/^\[|\]$/g, "")) !== 0) return true;
  const labels = host.split(".");
  if (labels.length < 2) return false;
  if (RESERVED_TLDS.has(labels.at(-1) ?? "")) return false;
  return !RESERVED_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

function parseSalt(env: Env): string | null {
  const raw = read(env, "ANALYTICS_SALT");
  if (raw === undefined) return null;
  if (raw.length < 16)
    throw new ConfigError("ANALYTICS_SALT", "must be at least 16 characters long");
  return raw;
}

function parseTrustProxy(env: Env): number {
  const raw = read(env, "TRUST_PROXY");
  if (raw === undefined) return 0;
  if (!/^\d{1,2}$/.test(raw)) {
    throw new ConfigError(
      "TRUST_PROXY",
      `must be the number of proxies in front, such as 1, got ${shown(raw)}`,
    );
  }
  return Number(raw);
}

/**
 * REDIS_URL: a Redis 7 or Valkey server, as `redis://[user:password@]host[:port][/db]` (or
 * `rediss://` over TLS). Its credentials are never shown back. Replicas that share counting must
 * give a visitor the same id, so the salt must be set too.
 */
function parseRedisUrl(env: Env, salt: string | null): string | null {
  const raw = read(env, "REDIS_URL");
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      "REDIS_URL",
      "must be a URL such as redis://redis:6379 or redis://:password@redis:6379/0, a password's / ? # @ : written %2F %3F %23 %40 %3A (the value is not shown: it may hold a secret)",
    );
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new ConfigError("REDIS_URL", "must use redis: or rediss:");
  }
  if (!url.hostname) throw new ConfigError("REDIS_URL", "must name a host");
  if (!/^\/?(\d{1,2})?$/.test(url.pathname)) {
    throw new ConfigError(
      "REDIS_URL",
      "must end in nothing but a database number such as /0 (a password's / ? # written %2F %3F %23)",
    );
  }
  if (url.search || url.hash) {
    throw new ConfigError(
      "REDIS_URL",
      "must have no query or fragment (a password's ? and # must be written %3F and %23)",
    );
  }
  if (salt === null) {
    throw new ConfigError(
      "ANALYTICS_SALT",
      "must be set when REDIS_URL is: every replica must give a visitor the same id",
    );
  }
  return raw;
}

export function parseDataDir(env: Env): string {
  const raw = read(env, "DATA_DIR") ?? "./data";
  if (/[\0\n\r]/.test(raw))
    throw new ConfigError("DATA_DIR", "must be a directory path on one line");
  return resolve(raw);
}

function parseRetention(env: Env): number {
  const raw = read(env, "LEAD_RETENTION_DAYS");
  if (raw === undefined) return 90;
  const days = Number(raw);
  if (!/^[0-9]{1,4}$/.test(raw) || days < 1 || days > 3650) {
    throw new ConfigError(
      "LEAD_RETENTION_DAYS",
      `must be whole days from 1 to 3650, got ${shown(raw)}`,
    );
  }
  return days;
}

function parseWhatsappWebhook(env: Env): Config["whatsapp"] {
  const verifyToken = read(env, "WHATSAPP_VERIFY_TOKEN");
  const appSecret = read(env, "WHATSAPP_APP_SECRET");
  if (!verifyToken && !appSecret) return null;
  if (!verifyToken) {
    throw new ConfigError("WHATSAPP_VERIFY_TOKEN", "must be set when WHATSAPP_APP_SECRET is");
  }
  if (!appSecret) {
    throw new ConfigError("WHATSAPP_APP_SECRET", "must be set when WHATSAPP_VERIFY_TOKEN is");
  }
  // Secrets are never shown back, not even in part.
  if (!/^[\x21-\x7e]{8,256}$/.test(verifyToken)) {
    throw new ConfigError(
      "WHATSAPP_VERIFY_TOKEN",
      "must be 8 to 256 visible ASCII characters (the token you typed into Meta's webhook set-up)",
    );
  }
  if (!/^[0-9a-f]{32}$/i.test(appSecret)) {
    throw new ConfigError(
      "WHATSAPP_APP_SECRET",
      "must be the app secret from the Meta app's Basic settings: 32 hexadecimal digits",
    );
  }
  return { verifyToken, appSecret };
}

function parseMetricsPort(env: Env): number | null {
  const raw = read(env, "METRICS_PORT");
  if (raw === undefined) return null;
  const port = Number(raw);
  if (!/^[0-9]{1,5}$/.test(raw) || port < 1 || port > 65535) {
    throw new ConfigError("METRICS_PORT", `must be a port from 1 to 65535, got ${shown(raw)}`);
  }
  if (port === parsePort(env)) throw new ConfigError("METRICS_PORT", "must differ from PORT");
  return port;
}

/** The company settings and the most characters each may have: a line in the footer each. */
export const COMPANY_SETTINGS = [
  { variable: "COMPANY_NAME", key: "name", max: 120 },
  { variable: "COMPANY_LICENCE", key: "licence", max: 40 },
  { variable: "COMPANY_ADDRESS", key: "address", max: 200 },
] as const;

// Control characters (C0, DEL, C1), line and paragraph separators, and the bidirectional
// overrides and isolates, which could turn the footer's text around.
const NOT_PRINTABLE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/**
 * COMPANY_NAME, COMPANY_LICENCE, COMPANY_ADDRESS: shown to every visitor as they are, so one
 * line of printable text each, bounded. A bad value is not shown back: it may be anything.
 */
function parseCompany(env: Env): Company {
  const company: Company = { name: null, licence: null, address: null };
  for (const { variable, key, max } of COMPANY_SETTINGS) {
    const raw = read(env, variable);
    if (raw === undefined) continue;
    if (NOT_PRINTABLE.test(raw)) {
      throw new ConfigError(variable, "must be one line of text without control characters");
    }
    if ([...raw].length > max) {
      throw new ConfigError(variable, `must be at most ${max} characters`);
    }
    company[key] = raw.replace(/\s+/g, " ");
  }
  return company;
}

function parseRenderCache(env: Env): boolean {
  const raw = read(env, "RENDER_CACHE");
  if (raw === undefined || raw === "on") return true;
  if (raw === "off") return false;
  throw new ConfigError("RENDER_CACHE", `must be on or off, got ${shown(raw)}`);
}

/** LOG_REQUESTS, LOG_LEADS: a line per request or per lead, 1 or 0 (the default). */
function parseSwitch(env: Env, name: "LOG_REQUESTS" | "LOG_LEADS"): boolean {
  const raw = read(env, name);
  if (raw === undefined || raw === "0") return false;
  if (raw === "1") return true;
  throw new ConfigError(name, `must be 1 or 0, got ${shown(raw)}`);
}

const REPLICA_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * REPLICA_ID: the replica's name in every log line, so that lines gathered from several read
 * apart. Unset, the machine's hostname (a container's, which compose.yaml sets per replica),
 * made to fit the same rule.
 */
function parseReplicaId(env: Env): string {
  const raw = read(env, "REPLICA_ID");
  if (raw === undefined) {
    return (
      hostname()
        .replace(/[^A-Za-z0-9._-]/g, "-")
        .slice(0, 64) || "replica"
    );
  }
  if (!REPLICA_ID.test(raw)) {
    throw new ConfigError(
      "REPLICA_ID",
      `must be 1 to 64 letters, digits, '.', '_' or '-', got ${shown(raw)}`,
    );
  }
  return raw;
}

/** EXPERIMENTS_FILE: the experiments it describes, checked; none without it. */
function parseExperimentsFile(env: Env): Experiment[] {
  const path = read(env, "EXPERIMENTS_FILE");
  if (path === undefined) return [];
  try {
    return readExperimentsFile(path);
  } catch (error) {
    if (!(error instanceof ExperimentsFileError)) throw error;
    throw new ConfigError("EXPERIMENTS_FILE", `${shown(path)}: ${error.message}`);
  }
}

/**
 * The contact settings still at the samples: unset, or written as .env.example writes them
 * (compared once parsed, so "+971 58 555 0134" is the sample number too).
 */
function samplesInUse(contacts: Record<SampleSetting, string>): SampleSetting[] {
  const samples = parseContacts({});
  const same = (name: SampleSetting) =>
    name === "CONTACT_PHONE"
      ? contacts[name].replace(/\D/g, "") === samples[name].replace(/\D/g, "")
      : contacts[name].toLowerCase() === samples[name].toLowerCase();
  return SAMPLE_NAMES.filter(same);
}

function parseContacts(env: Env): Record<SampleSetting, string> {
  return {
    WHATSAPP_NUMBER: parseWhatsapp(env),
    CONTACT_EMAIL: parseEmail(env),
    CONTACT_PHONE: parsePhone(env),
    DEMO_URL: parseUrl(env, "DEMO_URL", SAMPLE_SETTINGS.DEMO_URL, true).href,
  };
}

/**
 * On a public SITE_URL the samples would send real visitors, and their leads, to someone else's
 * number and inbox: start-up stops at the first one instead of warning.
 */
function refuseSamplesInProduction(env: Env, siteUrl: string, samples: SampleSetting[]): void {
  const [first] = samples;
  if (first === undefined || read(env, "SITE_URL") === undefined || !isPublicSiteUrl(siteUrl))
    return;
  const how = read(env, first) === undefined ? "is unset" : "is .env.example's sample";
  throw new ConfigError(
    first,
    `must be the site's own when SITE_URL is a public address: it ${how}, ${SAMPLE_SETTINGS[first]}, and visitors would reach that instead of you`,
  );
}

/** What a lead's tap, chat and later stages are worth, in AED: the value each event carries. */
export type LeadValues = Record<Exclude<Moment, "stages"> | Stage, number>;

const VALUED = ["tap", "chat", "qualified", "installed", "lost"] as const;

/**
 * LEAD_VALUE_AED: what each moment of a lead is worth to the business, for the platforms'
 * value-based bidding, as `installed=150,qualified=40` (any of tap, chat, qualified, installed,
 * lost; unnamed ones are 0), or one number for the tap alone.
 */
function parseLeadValues(env: Env): LeadValues {
  const values: LeadValues = { tap: 0, chat: 0, qualified: 0, installed: 0, lost: 0 };
  const raw = read(env, "LEAD_VALUE_AED");
  if (raw === undefined) return values;
  const amount = (text: string) => {
    const value = Number(text);
    if (!/^\d{1,7}(\.\d{1,2})?$/.test(text) || !Number.isFinite(value)) return null;
    return value;
  };
  const bad = () =>
    new ConfigError(
      "LEAD_VALUE_AED",
      `must be amounts in AED such as installed=150,qualified=40 (of ${VALUED.join(", ")}), or one amount for the tap, got ${shown(raw)}`,
    );
  if (amount(raw) !== null) return { ...values, tap: amount(raw) as number };
  for (const part of raw.split(",")) {
    const [name = "", text = ""] = part.split("=").map((side) => side.trim());
    const value = amount(text);
    if (!(VALUED as readonly string[]).includes(name) || value === null) throw bad();
    values[name as keyof LeadValues] = value;
  }
  return values;
}

/** LEADS_API_TOKEN: the bearer token the stage API asks for; unset, the API does not exist. */
function parseLeadsApiToken(env: Env): string | null {
  const raw = read(env, "LEADS_API_TOKEN");
  if (raw === undefined) return null;
  if (!TOKEN(32, 256).test(raw)) {
    throw new ConfigError(
      "LEADS_API_TOKEN",
      "must be 32 to 256 visible characters without spaces (such as the output of `openssl rand -hex 32`)",
    );
  }
  return raw;
}

export function parseConfig(env: Env): Config {
  const analyticsSalt = parseSalt(env);
  const port = parsePort(env);
  const host = parseHost(env);
  const siteUrl = parseSiteUrl(env);
  const contacts = parseContacts(env);
  const samples = samplesInUse(contacts);
  refuseSamplesInProduction(env, siteUrl, samples);
  return {
    port,
    host,
    siteUrl,
    whatsappNumber: contacts.WHATSAPP_NUMBER,
    contactEmail: contacts.CONTACT_EMAIL,
    contactPhone: contacts.CONTACT_PHONE,
    demoUrl: contacts.DEMO_URL,
    betaClosesAt: parseBetaClosesAt(env),
    destinations: readDestinations(env),
    leadValues: parseLeadValues(env),
    leadsApiToken: parseLeadsApiToken(env),
    analyticsSalt,
    trustProxy: parseTrustProxy(env),
    redisUrl: parseRedisUrl(env, analyticsSalt),
    dataDir: parseDataDir(env),
    leadRetentionDays: parseRetention(env),
    whatsapp: parseWhatsappWebhook(env),
    metricsPort: parseMetricsPort(env),
    renderCache: parseRenderCache(env),
    logRequests: parseSwitch(env, "LOG_REQUESTS"),
    logLeads: parseSwitch(env, "LOG_LEADS"),
    replicaId: parseReplicaId(env),
    experiments: parseExperimentsFile(env),
    samples,
    siteUrlSet: read(env, "SITE_URL") !== undefined,
    company: parseCompany(env),
  };
}

let cached: Config | undefined;

/**
 * The process's configuration. The server checks it once before listening (checkConfigAtStart),
 * so a bad value ends start-up with a single line and exit code 1, before the server listens.
 */
export function getConfig(): Config {
  if (cached) return cached;
  try {
    cached = parseConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    exitWith(error);
  }
  return cached;
}

/** Ends start-up with the error as its one log line (a JSON object) and exit code 1. */
export function exitWith(error: ConfigError): never {
  writeErrorLine(logLine("config_error", { variable: error.variable, error: error.message }));
  process.exit(1);
}

/** One line per setting a production server should not run without. */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (!config.siteUrlSet) {
    warnings.push(
      `SITE_URL not set; canonical links, og:url, og:image, the sitemap and share links point at ${config.siteUrl}`,
    );
  }
  if (config.samples.length > 0) {
    warnings.push(
      `${config.samples.join(", ")} not set or left at .env.example's; visitors are sent to the sample values (refused on a public address)`,
    );
  }
  const unsetCompany = COMPANY_SETTINGS.filter(({ key }) => config.company[key] === null).map(
    ({ variable }) => variable,
  );
  if (unsetCompany.length > 0) {
    warnings.push(
      `${unsetCompany.join(", ")} not set; the footer, the privacy notice, the terms and the structured data name no company`,
    );
  }
  if (!config.betaClosesAt) {
    warnings.push(
      "BETA_CLOSES_AT not set; each visitor's countdown runs two days from their first visit",
    );
  }
  // A destination's own: a test code left on, a setting it no longer uses.
  for (const destination of config.destinations) warnings.push(...destination.warnings);
  return warnings;
}

/**
 * REDIS_URL's database, when Redis answers within a second: with a database the server does not
 * have, the connection's SELECT fails and every shared key lands in database 0 without a word.
 * Redis unreachable is no error: a replica never waits for it
 * (docs/decisions/010-shared-state-on-redis.md) and counts in memory until it comes.
 */
async function checkRedisAtStart(url: string): Promise<void> {
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

/**
 * Everything start-up checks, the parts that need the network included; exits with one line
 * and code 1 on a bad setting. The server (server/index.ts) awaits it before it listens.
 */
export async function checkConfigAtStart(): Promise<Config> {
  const config = getConfig();
  try {
    await checkListenHost(config.host);
    if (config.redisUrl) await checkRedisAtStart(config.redisUrl);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    exitWith(error);
  }
  if (process.env.NODE_ENV === "production") {
    for (const warning of configWarnings(config)) {
      writeErrorLine(logLine("config_warning", { warning }));
    }
  }
  return config;
}
