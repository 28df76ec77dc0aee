/**
 * Turns requests into recorded events: the browser's batches from /api/events, and the leads
 * that /thank-you records on the server, so that they count with JavaScript off or blocked.
 */
import { getConfig } from "~/server/config.server";
import type { LeadVerdict } from "~/server/limits.server";
import type { RequestContext } from "~/server/request-context.server";
import { type Visitor, visitorFor } from "~/server/visitor.server";
import type { ClientEvent } from "~/shared/analytics-events";
import type { CtaType } from "~/shared/cta";
import type { PlanId } from "~/shared/plans";

export function visitorOf(context: RequestContext, request: Request): Visitor {
  return visitorFor(
    { address: context.clientAddress, userAgent: request.headers.get("user-agent") ?? "" },
    { salt: getConfig().analyticsSalt },
  );
}

/** The GA4 lead value (docs/product.md): AED, zero. */
export const LEAD_VALUE = { currency: "AED", value: 0 } as const;

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

/**
 * Records `conversion` for every CTA and `generate_lead` for WhatsApp, e-mail and demo, unless
 * this visitor's same lead was counted in the last 30 minutes or its address has added all the
 * leads it may for now (server/limits.server.ts).
 */
export function recordLead(context: RequestContext, request: Request, lead: Lead): LeadVerdict {
  const visitor = visitorOf(context, request);
  // Asking about Plus, then Pro, is two leads (a marketer wants both plans' interest), as
  // WhatsApp then e-mail is; the same plan again within 30 minutes is the same lead.
  const verdict = context.services.limits.lead(
    visitor,
    `${lead.cta}|${lead.source}|${lead.plan ?? ""}`,
  );
  if (verdict !== "counted") return verdict;
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
  context.services.analytics.record(visitor, events);
  return verdict;
}

/** Records a batch from the browser (the route has checked the visitor's limits). */
export function recordClientEvents(
  context: RequestContext,
  request: Request,
  events: ClientEvent[],
): void {
  context.services.analytics.record(visitorOf(context, request), events);
}
