/**
 * Every setting comes from the environment, with a default that works on a laptop. Each feature
 * declares its own beside its code (platform/settings.server.ts, platform/public-settings.server.ts,
 * leads/, experiments/, each destination); here, at the top, they are put together into the one
 * Config the app reads, with the rules between features. A bad value stops the server at start-up
 * with one line naming the variable: an operator must never find out from a visitor that SITE_URL
 * was mistyped (docs/decisions/030-settings-schema.md, the list in docs/settings.md).
 */
import type { Configured } from "~/analytics/destinations/destination.server";
import { destinationSettings, readDestinations } from "~/analytics/destinations/registry.server";
import { EXPERIMENTS_SETTINGS, readExperiments } from "~/experiments/settings.server";
import {
  DATA_DIR,
  LEAD_RETENTION_DAYS,
  LEAD_VALUE_AED,
  LEADS_API_TOKEN,
  LEADS_SETTINGS,
  type LeadValues,
  LOG_LEADS,
  readWhatsappWebhook,
} from "~/leads/settings.server";
import type { Config } from "~/platform/config.server";
import { logLine, writeErrorLine } from "~/platform/log-line.server";
import {
  BETA_CLOSES_AT,
  COMPANY_SETTINGS,
  type Company,
  PUBLIC_SETTINGS,
  readCompany,
  readContacts,
  refuseSamplesInProduction,
  SITE_URL,
  samplesInUse,
} from "~/platform/public-settings.server";
import { ConfigError, type Env, read } from "~/platform/setting-readers.server";
import {
  ANALYTICS_SALT,
  checkListenHost,
  checkRedisAtStart,
  HOST,
  LOG_REQUESTS,
  PORT,
  RENDER_CACHE,
  REPLICA_ID,
  readMetricsPort,
  readRedisUrl,
  SERVER_SETTINGS,
  TRUST_PROXY,
} from "~/platform/settings.server";
import type { Experiment } from "~/shared/experiment";

export type { Company, Config, LeadValues };
export { ConfigError };

declare module "~/platform/config.server" {
  /** Every setting, read and checked: what parseConfig returns. */
  interface Config {
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
    /**
     * The chat's automatic reply sends the beta's link for either phone itself (the "whatsapp"
     * destination on, BETA_LINK_IOS and BETA_LINK_ANDROID set): the page and the terms then say
     * the link comes in seconds, at any hour (content/copy.server.ts).
     */
    instantReply: boolean;
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
    /** Where the lead ledger is kept on disk (docs/decisions/016-lead-ledger.md). */
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
  }
}

/** Every setting an operator may set, each declared by its feature: what docs/settings.md lists. */
export const allSettings = () => [
  ...SERVER_SETTINGS,
  ...PUBLIC_SETTINGS,
  ...destinationSettings(),
  ...LEADS_SETTINGS,
  ...EXPERIMENTS_SETTINGS,
];

/** The settings read in one stable order: the first problem found is the one reported. */
export function parseConfig(env: Env): Config {
  const analyticsSalt = ANALYTICS_SALT.read(env);
  const port = PORT.read(env);
  const host = HOST.read(env) ?? undefined;
  const siteUrl = SITE_URL.read(env);
  const contacts = readContacts(env);
  const samples = samplesInUse(contacts);
  refuseSamplesInProduction(env, siteUrl, samples);
  const destinations = readDestinations(env);
  return {
    port,
    host,
    siteUrl,
    whatsappNumber: contacts.WHATSAPP_NUMBER,
    contactEmail: contacts.CONTACT_EMAIL,
    contactPhone: contacts.CONTACT_PHONE,
    demoUrl: contacts.DEMO_URL,
    betaClosesAt: BETA_CLOSES_AT.read(env),
    destinations,
    instantReply: repliesWithLinks(env, destinations),
    leadValues: LEAD_VALUE_AED.read(env),
    leadsApiToken: LEADS_API_TOKEN.read(env),
    analyticsSalt,
    trustProxy: TRUST_PROXY.read(env),
    redisUrl: readRedisUrl(env, analyticsSalt),
    dataDir: DATA_DIR.read(env),
    leadRetentionDays: LEAD_RETENTION_DAYS.read(env),
    whatsapp: readWhatsappWebhook(env),
    metricsPort: readMetricsPort(env),
    renderCache: RENDER_CACHE.read(env),
    logRequests: LOG_REQUESTS.read(env),
    logLeads: LOG_LEADS.read(env),
    replicaId: REPLICA_ID.read(env),
    experiments: readExperiments(env),
    samples,
    siteUrlSet: read(env, "SITE_URL") !== undefined,
    company: readCompany(env),
  };
}

/**
 * Whether a driver's first message is answered with the beta's link for their phone, whichever
 * it is: the reply on (its settings read and checked with the destinations) and both links set.
 * Without a link the reply says when a person answers; with one, an Android phone could be sent
 * the iPhone's. Either way the page's "within the hour, 8 am to 10 pm" is still what holds.
 */
function repliesWithLinks(env: Env, destinations: Configured[]): boolean {
  return (
    destinations.some(({ name }) => name === "whatsapp") &&
    read(env, "BETA_LINK_IOS") !== undefined &&
    read(env, "BETA_LINK_ANDROID") !== undefined
  );
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
