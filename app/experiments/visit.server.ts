/**
 * A visit's part in the running experiment (docs/decisions/022-experiments.md): which variant
 * its landing page shows, and, the first time that day, the view counted in the ledger. GA4's
 * `experience_impression` goes on the visit's own session: the browser's (hooks/use-visit.ts),
 * or without JavaScript the no-JS view's (analytics/no-js-view.server.ts). Crawlers, link
 * previews, prefetches, HEADs and `Sec-GPC: 1` get the control and are not counted; so are
 * visitors outside the traffic share.
 */
import { assign } from "~/experiments/assignment.server";
import { runningExperiment } from "~/leads/variant-credit.server";
import {
  dubaiDay,
  type HeaderReader,
  isVisitorsNavigation,
  type Visitor,
  visitorFor,
} from "~/leads/visitor.server";
import type { Config } from "~/platform/config.server";
import { bounded, logLine } from "~/platform/log-line.server";
import type { Services } from "~/platform/request-context.server";
import type { Assignment, VariantCopy } from "~/shared/experiment";

export type Asker = {
  address: string;
  method: string;
  headers: HeaderReader;
};

/**
 * The variant `asker` sees in the running experiment; null: not taking part (the page without an
 * experiment, which is the control's words).
 */
export function assignmentOf(config: Pick<Config, "experiments" | "analyticsSalt">, asker: Asker) {
  const experiment = runningExperiment(config.experiments);
  if (!experiment || !isVisitorsNavigation(asker)) return null;
  const visitor = visitorFor(
    { address: asker.address, userAgent: asker.headers.get("user-agent") ?? "" },
    { salt: config.analyticsSalt },
  );
  // Only here, at the landing page's render: a lead counts for what its link carried
  // (leads/variant-credit.server.ts), never for what its address would give at the tap.
  const assignment = assign(experiment, visitor.clientId);
  return assignment && { assignment, visitor };
}

/**
 * Counts the visitor's view of their variant, once a day per experiment and within their
 * address's bound (leads/limits.server.ts): a counter in the ledger, never a record of the
 * visitor. The page never waits for it.
 */
export async function countView(
  services: Services,
  visitor: Visitor,
  assignment: Assignment,
  now = new Date(),
): Promise<boolean> {
  const verdict = await services.limits.exposure(visitor, assignment.experiment);
  if (verdict !== "counted") return false;
  services.ledger.recordExposure({
    day: dubaiDay(now),
    experiment: assignment.experiment,
    variant: assignment.variant,
  });
  return true;
}

/**
 * What the app's own server asks for a landing page's request (server/experiments.ts): the
 * variant it shows to a visitor taking part (the control too), null for everyone else; the
 * visitor's first view today is counted on the side.
 */
export function experimentOfRequest(
  config: Config,
  services: Services,
  asker: Asker,
): Assignment | null {
  const taking = assignmentOf(config, asker);
  if (!taking) return null;
  countView(services, taking.visitor, taking.assignment).catch((error: unknown) => {
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
 * The document cache's part for a variant (server/document-cache.ts): "" for a visitor not taking
 * part, whose page is the one without an experiment. The control's page is kept apart too: its
 * lead links name the control (shared/cta.ts, VARIANT_PARAM), which the page a crawler or a
 * visitor outside the traffic share gets must not.
 */
export function assignmentKey(assignment: Assignment | null | undefined): string {
  return assignment ? `${assignment.experiment}=${assignment.variant} ` : "";
}
