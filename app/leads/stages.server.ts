/**
 * What became of a lead after its chat, told by the team or the app's own back end
 * (POST /api/leads/stage, `npm run leads -- stage`): qualified, installed, lost. Each stage of
 * a lead is recorded once (across replicas, claimed in Redis when they share it) and only in
 * order (nothing after the last; qualified before installed or lost), then told to GA4 as its
 * lead event on the lead's own client and session, and to each network as its own event, with
 * the lead's click and its phone's hash (docs/decisions/026-chat-and-stage-events.md).
 */

import { refInText } from "~/leads/chat-ref";
import { landingUrl, leadValue } from "~/leads/leads.server";
import type { LeadRecord } from "~/leads/ledger/ledger.server";
import { expVariantString } from "~/leads/variant-token";
import type { RequestContext } from "~/platform/request-context.server";
import { campaignDetails, leadSource } from "~/shared/campaign";
import type { OutboundEvent } from "~/shared/events";

/** What became of a lead after its chat, as the team or the app's back end says. */
export const STAGES = ["qualified", "installed", "lost"] as const;
export type Stage = (typeof STAGES)[number];

/** The most a stage may be worth, in AED: a typing mistake, not a customer. */
export const MAX_STAGE_VALUE = 1_000_000;

export type StageAnswer =
  | { status: 200; recorded: boolean; ref: string; stage: Stage }
  | { status: 404 | 409; error: string };

/** GA4's lead event for a stage (its recommended events), and the lost one's two cases. */
function ga4Event(lead: LeadRecord, stage: Stage, value: number, reason?: string): OutboundEvent {
  const name =
    stage === "qualified"
      ? "qualify_lead"
      : stage === "installed"
        ? "close_convert_lead"
        : lead.stages?.qualified
          ? "close_unconvert_lead"
          : "disqualify_lead";
  const reasonParam =
    name === "close_unconvert_lead" ? "unconvert_lead_reason" : "disqualified_lead_reason";
  return {
    name,
    params: {
      ...leadValue(value),
      lead_status: stage,
      lead_source: leadSource(lead.campaign),
      cta: lead.cta,
      ...(lead.language ? { language: lead.language } : {}),
      ...(lead.plan ? { plan: lead.plan } : {}),
      ...campaignDetails(lead.campaign),
      ...(lead.experiment
        ? {
            exp_variant_string: expVariantString({
              experiment: lead.experiment.id,
              variant: lead.experiment.variant,
            }),
          }
        : {}),
      ...(stage === "lost" && reason ? { [reasonParam]: reason.slice(0, 100) } : {}),
    },
  };
}

/** A lead as this replica and Redis know it together: every stage either recorded. */
function mergedLead(local: LeadRecord, remote: LeadRecord): LeadRecord {
  const stages = { ...remote.stages, ...local.stages };
  const last = stages.installed || stages.lost;
  const phone = last ? undefined : (local.phone ?? remote.phone);
  const { phone: _phone, ...rest } = local;
  return {
    ...rest,
    ...(Object.keys(stages).length > 0 ? { stages } : {}),
    ...(phone ? { phone } : {}),
  };
}

/** Why `stage` cannot follow what the lead has had, or null when it can. */
export function outOfOrder(lead: LeadRecord, stage: Stage): string | null {
  const had = lead.stages ?? {};
  if (had.installed && stage !== "installed") return "the lead is installed already";
  if (had.lost && stage !== "lost") return "the lead is lost already";
  if (stage === "qualified" && (had.installed || had.lost)) return "the lead is past qualified";
  return null;
}

/**
 * Records `stage` for the lead whose reference is `ref`, once; answers what happened, for the
 * API and the command line alike.
 */
export async function recordStage(
  context: RequestContext,
  asked: { ref: string; stage: Stage; value?: number; reason?: string },
  now = Date.now(),
): Promise<StageAnswer> {
  const { ledger, shared, analytics } = context.services;
  const ref = refInText(asked.ref);
  if (!ref) return { status: 404, error: "no lead has that reference" };
  const local = ledger.leadByRef(ref);
  // Redis's copy has what every replica told of the lead: a stage another recorded, the phone.
  const remote = shared ? await shared.leadByRef(ref) : undefined;
  if (!local && remote) ledger.adoptLead(remote);
  const lead = local && remote ? mergedLead(local, remote) : (local ?? remote);
  if (!lead) return { status: 404, error: `no lead has the reference ${ref}` };
  if (lead.stages?.[asked.stage]) return { status: 200, recorded: false, ref, stage: asked.stage };
  const wrong = outOfOrder(lead, asked.stage);
  if (wrong) return { status: 409, error: `${asked.stage} cannot follow: ${wrong}` };
  // Another replica may have it: Redis says whether any did.
  if (shared && (await shared.claimStage(lead.id, asked.stage, lead.at)) === false) {
    return { status: 200, recorded: false, ref, stage: asked.stage };
  }
  const value = asked.value ?? context.config.leadValues[asked.stage];
  analytics.recordStage(
    {
      lead,
      stage: asked.stage,
      at: now,
      value,
      ...(lead.phone ? { phone: lead.phone } : {}),
      pageUrl: (campaign) => landingUrl(context.config.siteUrl, campaign),
    },
    [ga4Event(lead, asked.stage, value, asked.reason)],
  );
  return { status: 200, recorded: true, ref, stage: asked.stage };
}
