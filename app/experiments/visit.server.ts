/**
 * A visit's part in the running experiment (docs/decisions/022-experiments.md): which variant
 * its landing page shows, and, the first time that day, the view counted in the ledger and told
 * to GA4 as `experience_impression`. Crawlers, link previews, prefetches, HEADs and `Sec-GPC: 1`
 * get the control and are not counted; so are visitors outside the traffic share.
 */
import { assign, runningExperiment } from "~/experiments/assignment.server";
import {
  type Assignment,
  EXPOSURE_EVENT,
  expVariantString,
  type VariantCopy,
} from "~/experiments/experiment";
import {
  dubaiDay,
  type HeaderReader,
  isVisitorsNavigation,
  type Visitor,
  visitorFor,
} from "~/leads/visitor.server";
import type { Config } from "~/platform/config.server";
import { bounded, logLine } from "~/platform/log-line.server";
import type { Services } from "~/platform/services.server";
import { campaignFrom } from "~/shared/campaign";

export type Asker = {
  address: string;
  method: string;
  headers: HeaderReader;
};

/** The variant a visitor takes part with in the running experiment; null: none, or outside it. */
export function assignmentFor(
  config: Pick<Config, "experiments">,
  visitor: Visitor,
): Assignment | null {
  const experiment = runningExperiment(config.experiments);
  return experiment && assign(experiment, visitor.clientId);
}

/** The variant `asker` sees in the running experiment; null: the control, not taking part. */
export function assignmentOf(config: Pick<Config, "experiments" | "analyticsSalt">, asker: Asker) {
  if (!runningExperiment(config.experiments) || !isVisitorsNavigation(asker)) return null;
  const visitor = visitorFor(
    { address: asker.address, userAgent: asker.headers.get("user-agent") ?? "" },
    { salt: config.analyticsSalt },
  );
  const assignment = assignmentFor(config, visitor);
  return assignment && { assignment, visitor };
}

/**
 * Counts the visitor's view of their variant, once a day per experiment and within their
 * address's bound (leads/limits.server.ts): a counter in the ledger (never a record of the
 * visitor), and `experience_impression` with GA4's exp_variant_string on the visit's session.
 * The page never waits for it.
 */
export async function countView(
  services: Services,
  visitor: Visitor,
  assignment: Assignment,
  search: string,
  now = new Date(),
): Promise<boolean> {
  const verdict = await services.limits.exposure(visitor, assignment.experiment);
  if (verdict !== "counted") return false;
  services.ledger.recordExposure({
    day: dubaiDay(now),
    experiment: assignment.experiment,
    variant: assignment.variant,
  });
  // The visit's campaign, for its GA4 session: worked out only for a view that counts.
  const campaign = campaignFrom(new URLSearchParams(search));
  const sessionId = await services.limits.session(visitor, campaign);
  services.analytics.record(
    visitor,
    [
      {
        name: EXPOSURE_EVENT,
        params: { exp_variant_string: expVariantString(assignment) },
      },
    ],
    { sessionId, at: now.getTime() },
  );
  return true;
}

/**
 * What the app's own server asks for a landing page's request (server/experiments.ts): the
 * variant it shows, null for the control; the visitor's first view today is counted on the side,
 * on the session of the campaign in `search` (the URL's query).
 */
export function experimentOfRequest(
  config: Config,
  services: Services,
  asker: Asker,
  search: string,
): Assignment | null {
  const taking = assignmentOf(config, asker);
  if (!taking) return null;
  countView(services, taking.visitor, taking.assignment, search).catch((error: unknown) => {
    services.log(
      logLine("experiment_view_error", { error: bounded(String((error as Error)?.message), 300) }),
    );
  });
  return taking.assignment;
}

/** The changes a variant makes to the page; null for the control (the page as it is). */
export function variantCopyOf(
  config: Pick<Config, "experiments">,
  assignment: Assignment | null | undefined,
): VariantCopy | null {
  if (!assignment) return null;
  const experiment = config.experiments.find(({ id }) => id === assignment.experiment);
  const copy = experiment?.variants.find(({ id }) => id === assignment.variant)?.copy;
  return copy && Object.keys(copy).length > 0 ? copy : null;
}

/**
 * The document cache's part for a variant (server/document-cache.ts): "" for the control, whose
 * page is everyone's, so its key is the one it has without an experiment.
 */
export function assignmentKey(
  config: Pick<Config, "experiments">,
  assignment: Assignment | null | undefined,
): string {
  return assignment && variantCopyOf(config, assignment)
    ? `${assignment.experiment}=${assignment.variant} `
    : "";
}
