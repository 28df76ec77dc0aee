/**
 * GA4's Measurement Protocol, opted into with GA_MEASUREMENT_ID and GA_API_SECRET: every event
 * the site records (a browser's, a lead's, its chat's, a stage's), on the visit's own client and
 * session, 25 to a call. Without it the events are written to the log instead (sink.server.ts).
 * The api_secret joins the address only as a call is sent (docs/decisions/024). Every event
 * leaves from the server, so each call says whose they are, as the reference documents it: the
 * visitor's address (`ip_override`, GA4 derives the location and keeps no address) and device.
 */
import { isIP } from "node:net";
import type { Destination, EventBatch } from "~/analytics/destinations/destination.server";
import { MOMENTS } from "~/analytics/destinations/destination.server";
import { deviceOf, type Ga4Device, plausibleUserAgent } from "~/analytics/device.server";
import type { NewCall } from "~/leads/ledger/ledger.server";
import {
  ConfigError,
  endpoint,
  read,
  setting,
  shown,
  text,
} from "~/platform/setting-readers.server";
import type { OutboundEvent } from "~/shared/events";
import { isLocale } from "~/shared/locale";

export type Ga4Settings = { measurementId: string; apiSecret: string; endpoint: string };

export const DEFAULT_GA_ENDPOINT = "https://www.google-analytics.com/mp/collect";
const GA4_BATCH_LIMIT = 25;

/**
 * Events sent this much later than they happened carry their own time (timestamp_micros): a
 * retry after backoff, a call owed from before a restart. Sooner, GA4 times them itself.
 */
export const BACKDATE_AFTER_MS = 2000;
/** GA4 takes timestamp_micros up to 72 hours back; older events are given up, not misdated. */
export const MAX_BACKDATE_MS = 72 * 3600_000;

/**
 * The GA4 body to send at `sentAt` for events that happened at `at`: as it is, or with
 * `timestamp_micros` first when it is measurably late, as Google documents it ("only for events
 * that happened in the past"); null past GA4's 72 hours.
 */
export function ga4Stamp(body: string, at: number, sentAt: number): string | null {
  const late = sentAt - at;
  if (late > MAX_BACKDATE_MS) return null;
  return late < BACKDATE_AFTER_MS ? body : `{"timestamp_micros":${at * 1000},${body.slice(1)}`;
}

/** Where GA4's calls go, as the ledger keeps it: the measurement id, never the api_secret. */
export function ga4Url(settings: Ga4Settings): URL {
  const url = new URL(settings.endpoint);
  url.searchParams.set("measurement_id", settings.measurementId);
  return url;
}

/** The same address with the api_secret, made as a call is sent. */
export function ga4Address(url: string, apiSecret: string): URL {
  const address = new URL(url);
  address.searchParams.set("api_secret", apiSecret);
  return address;
}

/**
 * Who the events came from, in the request's top-level fields: `ip_override` (no GeoIP here, so
 * no `user_location`, which GA4 would prefer), and `device`, or the `user_agent` for GA4 to read
 * when the site cannot (GA4 ignores it beside a `device`).
 */
export type Ga4Visit = { ip_override?: string; device?: Ga4Device; user_agent?: string };

/** The page's language ("en", "ar") as the events carry it, if they do. */
export function pageLanguage(events: OutboundEvent[]): string | undefined {
  return events.map((event) => event.params.language).find(isLocale);
}

/** What GA4 is told of the visitor a batch came from, with the page's language if known. */
export function ga4Visit(from: NonNullable<EventBatch["from"]>, language?: string): Ga4Visit {
  const visit: Ga4Visit = {};
  // An address as the server saw it, IPv4 or IPv6; "unknown" (no socket) is none.
  if (isIP(from.address)) visit.ip_override = from.address;
  const agent = from.userAgent ?? "";
  const device = deviceOf(agent, language);
  if (device) visit.device = device;
  else {
    const userAgent = plausibleUserAgent(agent);
    if (userAgent) visit.user_agent = userAgent;
  }
  return visit;
}

/** GA4's calls for one client's events, 25 to a call, each with whose they are when known. */
export function ga4Calls(
  url: URL,
  clientId: string,
  events: OutboundEvent[],
  at: number,
  lead?: string,
  visit: Ga4Visit = {},
): NewCall[] {
  const calls: NewCall[] = [];
  for (let start = 0; start < events.length; start += GA4_BATCH_LIMIT) {
    const slice = events.slice(start, start + GA4_BATCH_LIMIT);
    const body = JSON.stringify({ client_id: clientId, ...visit, events: slice });
    calls.push({ destination: "ga4", url: url.href, body, events: slice.length, at, lead });
  }
  return calls;
}

const GA_MP_ENDPOINT = endpoint({
  name: "GA_MP_ENDPOINT",
  description: "where GA4's Measurement Protocol calls go; http: only on loopback, for tests",
  default: DEFAULT_GA_ENDPOINT,
});

const GA_MEASUREMENT_ID = setting({
  name: "GA_MEASUREMENT_ID",
  description: "GA4's measurement id (G-…), with GA_API_SECRET",
  schema: text([
    (raw) => /^G-[A-Z0-9]{4,20}$/.test(raw),
    (raw) => `must look like G-XXXXXXXXXX, got ${shown(raw)}`,
  ]),
});

const GA_API_SECRET = setting({
  name: "GA_API_SECRET",
  description: "the Measurement Protocol's API secret, with GA_MEASUREMENT_ID",
  secret: true,
  schema: text([
    (raw) => /^[A-Za-z0-9_-]{8,128}$/.test(raw),
    "must be 8 to 128 letters, digits, '-' or '_'",
  ]),
});

function readGa4(env: Record<string, string | undefined>): Ga4Settings | null {
  const endpoint = GA_MP_ENDPOINT.read(env);
  const measurementId = read(env, "GA_MEASUREMENT_ID");
  const apiSecret = read(env, "GA_API_SECRET");
  if (!measurementId && !apiSecret) return null;
  if (!measurementId) {
    throw new ConfigError("GA_MEASUREMENT_ID", "must be set when GA_API_SECRET is");
  }
  if (!apiSecret) throw new ConfigError("GA_API_SECRET", "must be set when GA_MEASUREMENT_ID is");
  return {
    measurementId: GA_MEASUREMENT_ID.read(env) as string,
    apiSecret: GA_API_SECRET.read(env) as string,
    endpoint,
  };
}

const GA4_SETTINGS = [GA_MEASUREMENT_ID, GA_API_SECRET, GA_MP_ENDPOINT];

export const ga4: Destination<Ga4Settings> = {
  name: "ga4",
  settings: {
    names: GA4_SETTINGS.map(({ name }) => name),
    declared: GA4_SETTINGS,
    read: readGa4,
  },
  maxAgeMs: MAX_BACKDATE_MS,
  // GA4 keeps every copy it gets.
  deduplicates: false,
  secrets: (settings) => [settings.apiSecret],
  sending: (settings) => ({
    stamp: (call, sentAt) => ga4Stamp(call.body, call.at, sentAt),
    address: (url) => ga4Address(url, settings.apiSecret),
  }),
  moments: () => new Set(MOMENTS),
  events: (settings, batch) => {
    const visit = batch.from && ga4Visit(batch.from, pageLanguage(batch.events));
    const { clientId, events, at, lead } = batch;
    const calls = ga4Calls(ga4Url(settings), clientId, events, at, lead, visit);
    return batch.browser && !batch.lead ? calls.map((call) => ({ ...call, browser: true })) : calls;
  },
};
