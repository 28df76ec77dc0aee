/**
 * The plans as the lead flow knows them: which ids a `plan` parameter may name, and the message
 * each plan's WhatsApp button opens. Server-side only (loaders and static parts): the ids are
 * shared/plan-id.ts's, each with its copy in content/plans.ts.
 */
import type { Localized } from "~/content/localized";
import { type PlanPeriod, plans } from "~/content/plans";
import type { PlanId } from "~/shared/plan-id";

export type { PlanId };

/** The plans content/plans.ts writes copy for: exactly the ids of shared/plan-id.ts, both ways. */
type ContentPlanId = (typeof plans.items)[number]["id"];
const samePlans: [ContentPlanId, PlanId] extends [PlanId, ContentPlanId] ? true : never = true;
void samePlans;

export const PLAN_IDS: readonly PlanId[] = plans.items.map((plan) => plan.id);

/** A known plan id exactly as the site writes it; anything else is ignored (undefined), not echoed. */
export function parsePlan(raw: string | null | undefined): PlanId | undefined {
  return PLAN_IDS.find((id) => id === raw);
}

/** Each plan's WhatsApp message in one language's copy. */
export function planMessages(copy: Localized<typeof plans>): Record<PlanId, string> {
  return Object.fromEntries(copy.items.map((plan) => [plan.id, plan.whatsappMessage])) as Record<
    PlanId,
    string
  >;
}

/** How a period is written for machines: an ISO 8601 duration and its UN/CEFACT unit code. */
export const PERIOD_CODES: Record<PlanPeriod, { duration: string; unitCode: string }> = {
  month: { duration: "P1M", unitCode: "MON" },
  year: { duration: "P1Y", unitCode: "ANN" },
};
