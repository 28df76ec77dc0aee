/**
 * Turns requests into recorded events: the browser's batches from /api/events, and the leads
 * that /thank-you records on the server, so that they count with JavaScript off or blocked.
 */

import { createSink, type Sink, statsReporter } from "~/server/analytics.server";
import { getConfig } from "~/server/config.server";
import { processShutdown } from "~/server/shutdown.server";
import { type Visitor, visitorFor } from "~/server/visitor.server";
import type { ClientEvent } from "~/shared/analytics-events";
import type { CtaType } from "~/shared/cta";
import type { PlanId } from "~/shared/plans";

/** How often the operator sees the analytics counters (when they changed). */
export const STATS_INTERVAL_MS = 60_000;

// On import, so that SIGTERM drains keep-alive connections and exits on time even before the
// first event: see shutdown.server.ts.
const shutdown = processShutdown();

let sink: Sink | undefined;

export function getSink(): Sink {
  if (sink) return sink;
  const config = getConfig();
  const created = createSink({ ga: config.ga, endpoint: config.gaEndpoint });
  sink = created;
  const log = (line: string) => console.log(line);
  // A line a minute while anything changes: how many were sent, retried and dropped.
  setInterval(statsReporter(created, log), STATS_INTERVAL_MS).unref();
  // On SIGTERM what is queued is sent, for at most 5 s; then one line with the final counts.
  shutdown.register({
    flush: (deadlineMs) => created.flush(deadlineMs),
    beforeExit: () => {
      created.close();
      log(JSON.stringify({ type: "analytics_shutdown", ...created.stats() }));
    },
  });
  return created;
}

export function visitorOf(request: Request): Visitor {
  const config = getConfig();
  return visitorFor(request.headers, { salt: config.analyticsSalt, trustProxy: config.trustProxy });
}

/** The GA4 lead value of spec §9: AED, zero. */
export const LEAD_VALUE = { currency: "AED", value: 0 } as const;

const DEDUPE_WINDOW_MS = 30 * 60 * 1000;
const DEDUPE_MAX = 10_000;
const seen = new Map<string, number>();

/**
 * A reload, the Back button or a second tap within 30 minutes is the same lead, not another.
 * Per instance only: it stops double counting, it is not a ledger.
 */
export function firstTimeWithin(key: string, now = Date.now()): boolean {
  const last = seen.get(key);
  if (last !== undefined && now - last < DEDUPE_WINDOW_MS) return false;
  seen.delete(key);
  seen.set(key, now);
  if (seen.size > DEDUPE_MAX) {
    const oldest = seen.keys().next().value;
    if (oldest !== undefined) seen.delete(oldest);
  }
  return true;
}

export type Lead = {
  cta: CtaType;
  source: string;
  /** The plan a plan's button asked about (shared/plans.ts), if any. */
  plan?: PlanId;
  medium?: string;
  campaign?: string;
  /** The page's language ("en", "ar"), as the browser's events carry it. */
  language?: string;
};

/** Records `conversion` for every CTA and `generate_lead` for WhatsApp, e-mail and demo. */
export function recordLead(request: Request, lead: Lead): boolean {
  const visitor = visitorOf(request);
  // Asking about Plus, then Pro, is two leads (a marketer wants both plans' interest), as
  // WhatsApp then e-mail is; the same plan again within 30 minutes is the same lead.
  if (!firstTimeWithin(`${visitor.clientId}|${lead.cta}|${lead.source}|${lead.plan ?? ""}`)) {
    return false;
  }
  const params = {
    ...LEAD_VALUE,
    cta: lead.cta,
    source: lead.source,
    ...(lead.plan ? { plan: lead.plan } : {}),
    ...(lead.medium ? { medium: lead.medium } : {}),
    ...(lead.campaign ? { campaign: lead.campaign } : {}),
    ...(lead.language ? { language: lead.language } : {}),
  };
  const events = [{ name: "conversion", params }];
  if (lead.cta !== "link") events.push({ name: "generate_lead", params });
  getSink().record(visitor, events);
  return true;
}

export function recordClientEvents(request: Request, events: ClientEvent[]): void {
  getSink().record(visitorOf(request), events);
}
