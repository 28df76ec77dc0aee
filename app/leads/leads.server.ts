/**
 * Turns requests into recorded events: the browser's batches from /api/events, and the leads
 * that /thank-you records on the server, so that they count with JavaScript off or blocked.
 */

import { fbcOf } from "~/leads/attribution-cookies.server";
import { chatRef, leadId, previousWindow } from "~/leads/ledger/lead-ids.server";
import type { LeadRecord } from "~/leads/ledger/ledger.server";
import type { LeadVerdict } from "~/leads/limits.server";
import { phoneOsOf } from "~/leads/phone-os";
import type { PlanId } from "~/leads/plans";
import type { TapFacts } from "~/leads/tap-facts";
import { creditOf } from "~/leads/variant-credit.server";
import { expVariantString } from "~/leads/variant-token";
import { type Visitor, visitorFor } from "~/leads/visitor.server";
import { bounded, logLine } from "~/platform/log-line.server";
import type { RequestContext } from "~/platform/request-context.server";
import {
  type Campaign,
  CLICK_IDS,
  campaignDetails,
  leadSource,
  setCampaign,
} from "~/shared/campaign";
import type { CtaType } from "~/shared/cta";
import { type ClientEvent, fitParams, LIMITS, type OutboundEvent } from "~/shared/events";
import type { Assignment } from "~/shared/experiment";

export function visitorOf(context: RequestContext, request: Request): Visitor {
  return visitorFor(
    { address: context.clientAddress, userAgent: request.headers.get("user-agent") ?? "" },
    { salt: context.config.analyticsSalt },
  );
}

/** A lead's value as GA4's lead events carry it: AED, LEAD_VALUE_AED's for that moment. */
export const leadValue = (value: number) => ({ currency: "AED", value });

export type Lead = {
  cta: CtaType;
  /** What the lead link carried of the visit's campaign (shared/campaign.ts). */
  campaign: Campaign;
  /** The plan a plan's button asked about (leads/plans.ts), if any. */
  plan?: PlanId;
  /** The page's language ("en", "ar"), as the browser's events carry it. */
  language?: string;
  /**
   * The browser's GA4 session id from the lead link (`sid`); else (no JavaScript) the session
   * the server keeps for the visitor and campaign (limits.server.ts, `session`).
   */
  sessionId?: string;
  /** When the visit's fbclid was first seen (`fbclid_at`, ms), for Meta's fbc. */
  fbclidAt?: number;
  /** Meta's browser id the site keeps for this browser, while Meta is a destination. */
  fbp?: string;
  /** The page the visitor tapped on (a path on this site), for Meta's event_source_url. */
  fromPath?: string;
  /** /thank-you's own page_view, when the browser will not send one (no JavaScript). */
  pageView?: { location: string; referrer?: string; title?: string };
  /** The experiment's variant the lead link carried (`exp`), unchecked; absent: none. */
  variant?: string;
  /** Where the tapped button sits on its page ("hero", "sticky", "plan-pro"…), checked. */
  placement?: string;
  /** The running experiment's variant the lead counts for: the one its page showed. */
  experiment?: Assignment | null;
};

export type LeadResult = {
  verdict: LeadVerdict;
  /** The lead's id (Meta's event_id), for a pixel on /thank-you to deduplicate with. */
  id?: string;
  /** A WhatsApp lead's chat reference, for its message (leads/chat-ref.ts). */
  ref?: string;
};

/** Salted like the visitor id; a process without ANALYTICS_SALT has ids of its own. */
const processSalt = crypto.randomUUID();

/** /thank-you's own page_view, with the context the browser puts on its events. */
function pageView(view: NonNullable<Lead["pageView"]>, lead: Lead): OutboundEvent {
  const { location, referrer, title } = view;
  const { source, medium, campaign } = campaignDetails(lead.campaign);
  // fitParams cuts each to GA4's own limit for it (1000, 420, 300, else 100).
  const params = fitParams({
    page_location: location,
    page_referrer: referrer,
    page_title: title,
    source,
    medium,
    campaign,
    language: lead.language,
  });
  return { name: "page_view", params };
}

/**
 * What GA4 and Meta are told of a lead: its value, CTA, language, plan and whole campaign, and
 * for GA4 the click ids that fit its 100 characters.
 */
export function leadParams(
  lead: Lead,
  { clickIds = true, value = 0 } = {},
): Record<string, string | number> {
  const params: Record<string, string | number> = {
    ...leadValue(value),
    lead_source: leadSource(lead.campaign),
    cta: lead.cta,
    ...(lead.language ? { language: lead.language } : {}),
    ...(lead.plan ? { plan: lead.plan } : {}),
    ...(lead.placement ? { placement: lead.placement } : {}),
    ...campaignDetails(lead.campaign),
    // The variant the visitor saw, as GA4's experience_impression names it.
    ...(lead.experiment ? { exp_variant_string: expVariantString(lead.experiment) } : {}),
  };
  // Click ids that fit GA4's 100 characters, for joining exports; Meta gets fbclid whole (fbc).
  if (!clickIds) return params;
  for (const name of CLICK_IDS) {
    const value = lead.campaign[name];
    if (value !== undefined && value.length <= LIMITS.paramValueLength) params[name] = value;
  }
  return params;
}

/** The absolute address of the page the lead came from, with the visit's campaign. */
function pageUrl(lead: Lead, campaign: Campaign, siteUrl: string): string {
  return landingUrl(siteUrl, campaign, lead.fromPath);
}

/** A page of this site (the landing page unless said) with a campaign on its address. */
export function landingUrl(siteUrl: string, campaign: Campaign, path = "/"): string {
  const url = new URL(path, siteUrl);
  const search = new URLSearchParams(url.search);
  setCampaign(search, campaign);
  url.search = search.toString();
  return url.href;
}

/**
 * Records, unless this visitor's same lead was counted in the last 30 minutes or its address
 * has added all the leads it may for now (leads/shared-limits.server.ts, across replicas when
 * they share Redis): `campaign_details` when the visit was tagged (a visitor without JavaScript
 * posts no events, so GA4 learns the campaign here), `conversion` for every CTA and
 * `generate_lead` for WhatsApp, e-mail and demo, all on the visit's GA4 session; and for Meta,
 * when configured, a Lead with the lead's id.
 */
export async function recordLead(
  context: RequestContext,
  request: Request,
  asked: Lead,
): Promise<LeadResult> {
  const visitor = visitorOf(context, request);
  // The variant the visitor's page showed, as its link carried it: never worked out again from
  // an address that may have changed since; without one, the lead is set aside.
  const credit = creditOf(context.config.experiments, asked.variant);
  const lead: Lead = {
    ...asked,
    experiment: credit && "credited" in credit ? credit.credited : null,
  };
  // Asking about Plus, then Pro, is two leads (a marketer wants both plans' interest), as
  // WhatsApp then e-mail is; the same plan again within 30 minutes is the same lead.
  // "Instagram" and "instagram" on one visitor's links are one lead.
  const key = `${lead.cta}|${leadSource(lead.campaign).toLowerCase()}|${lead.plan ?? ""}`;
  const verdict = await context.services.limits.lead(visitor, key);
  const events: OutboundEvent[] = [];
  // An address past its cap adds nothing at all, not even to a session.
  if (verdict === "capped") return { verdict };
  const sessionId =
    lead.sessionId ?? (await context.services.limits.session(visitor, lead.campaign));
  const at = Date.now();
  const salt = context.config.analyticsSalt ?? processSalt;
  const id = leadId(salt, visitor.clientId, key, at);
  const { ledger } = context.services;
  if (verdict !== "counted") {
    // A reload still shows the page, and the same reference: the lead is the one counted.
    if (lead.pageView) events.push(pageView(lead.pageView, lead));
    if (events.length > 0) context.services.analytics.record(visitor, events, { sessionId });
    const first =
      ledger.lead(id) ?? ledger.lead(leadId(salt, visitor.clientId, key, previousWindow(at)));
    return { verdict, id: first?.id, ref: first?.ref };
  }
  // Counted in this window already (by this replica before a restart, or by another one while
  // Redis was away): the same lead, told to no one twice.
  const known = ledger.lead(id);
  if (known) {
    // Shown again, as a reload is.
    if (lead.pageView) {
      context.services.analytics.record(visitor, [pageView(lead.pageView, lead)], { sessionId });
    }
    return { verdict: "repeat", id, ref: known.ref };
  }
  const tapValue = context.config.leadValues.tap;
  const params = leadParams(lead, { value: tapValue });
  const details = campaignDetails(lead.campaign);
  if (Object.keys(details).length > 0) {
    // With the page's language, as the browser's campaign_details has it.
    const params: Record<string, string> = { ...details };
    if (lead.language) params.language = lead.language;
    events.push({ name: "campaign_details", params });
  }
  if (lead.pageView) events.push(pageView(lead.pageView, lead));
  events.push({ name: "conversion", params });
  if (lead.cta !== "link") events.push({ name: "generate_lead", params });
  const fbc = lead.campaign.fbclid
    ? fbcOf(lead.campaign.fbclid, Math.min(lead.fbclidAt ?? at, at))
    : undefined;
  // Only a WhatsApp lead is ever answered with a link for its phone.
  const os =
    lead.cta === "whatsapp" ? phoneOsOf(request.headers.get("user-agent") ?? "") : undefined;
  const record: LeadRecord = {
    id,
    at,
    cta: lead.cta,
    ...(lead.language ? { language: lead.language } : {}),
    ...(lead.plan ? { plan: lead.plan } : {}),
    campaign: lead.campaign,
    clientId: visitor.clientId,
    sessionId,
    ...(lead.cta === "whatsapp" ? { ref: chatRef(id, ledger.refTaken) } : {}),
    ...(fbc ? { fbc } : {}),
    ...(lead.fbp ? { fbp: lead.fbp } : {}),
    ...(lead.placement ? { placement: lead.placement } : {}),
    ...(lead.experiment
      ? { experiment: { id: lead.experiment.experiment, variant: lead.experiment.variant } }
      : {}),
    ...(credit && "setAside" in credit ? { experimentSetAside: credit.setAside } : {}),
    ...(os ? { os } : {}),
    status: "new",
  };
  if (context.config.logLeads) context.services.log(leadLine(record));
  // A shared link is no lead for the networks: only GA4's conversion reports it.
  const tap: TapFacts | null =
    lead.cta === "link"
      ? null
      : {
          id,
          at,
          cta: lead.cta,
          clientId: visitor.clientId,
          address: visitor.address,
          userAgent: request.headers.get("user-agent") ?? "",
          campaign: lead.campaign,
          fbclidAt: lead.fbclidAt,
          fbp: lead.fbp,
          pageUrl: (campaign) => pageUrl(lead, campaign, context.config.siteUrl),
          details: leadParams(lead, { clickIds: false, value: tapValue }),
          value: tapValue,
        };
  context.services.analytics.record(visitor, events, { sessionId, at, lead: { record, tap } });
  return { verdict, id, ref: record.ref };
}

/**
 * LOG_LEADS=1: one line per lead counted, for an operator following a campaign live. What the
 * lead is and where it came from, never who: no address, no user agent, no visitor id.
 */
export function leadLine(lead: LeadRecord): string {
  const campaign = Object.fromEntries(
    Object.entries(campaignDetails(lead.campaign)).map(([name, value]) => [
      name,
      bounded(value, 100),
    ]),
  );
  return logLine("lead", {
    id: lead.id,
    cta: lead.cta,
    ...(lead.language ? { language: lead.language } : {}),
    ...(lead.plan ? { plan: lead.plan } : {}),
    lead_source: bounded(leadSource(lead.campaign), 100),
    ...campaign,
    ...(lead.ref ? { ref: lead.ref } : {}),
    ...(lead.experiment ? { variant: `${lead.experiment.id}/${lead.experiment.variant}` } : {}),
  });
}

/** Records a batch from the browser (the route has checked the visitor's limits). */
export function recordClientEvents(
  context: RequestContext,
  request: Request,
  events: ClientEvent[],
  sessionId?: string,
): void {
  context.services.analytics.record(visitorOf(context, request), events, {
    sessionId,
    browser: true,
  });
}
