/**
 * Which variant a lead counts for: the one its visitor's page showed, as the lead link carried
 * it (`exp`, shared/cta.ts), never worked out again from the address at the tap. A phone that
 * moves from Wi-Fi to 5G between the two is the same person with a new address, and a visitor
 * who landed on a page the test does not change saw no variant at all. So the link's variant is
 * trusted as it is (not checked against the traffic share, which the new address would redo),
 * and a lead without one the running experiment has is set aside, with the reason, never
 * credited to a variant (docs/experiments.md).
 */

import { parseVariantToken } from "~/leads/variant-token";
import type { Assignment, Experiment } from "~/shared/experiment";

/** The one running experiment, if any (the file's check allows one at a time). */
export const runningExperiment = (experiments: Experiment[]): Experiment | null =>
  experiments.find((experiment) => experiment.status === "running") ?? null;

/**
 * Why a lead counts toward no variant of the running experiment (creditOf):
 * `no_variant`, its link carried none (the visitor landed on a page the test does not change, was
 * outside its traffic share, or a link lost it); `unknown_variant`, it carried one the running
 * experiment does not have (junk, another or a stopped experiment, a removed variant).
 */
export const SET_ASIDE_REASONS = ["no_variant", "unknown_variant"] as const;
export type SetAsideReason = (typeof SET_ASIDE_REASONS)[number];

export type LeadCredit =
  | { credited: Assignment }
  | { setAside: { experiment: string; reason: SetAsideReason } };

/** The running experiment's variant named by `token` (`DRB-<experiment>-<variant>`), or null. */
export function shownVariant(experiments: Experiment[], token: string): Assignment | null {
  const experiment = runningExperiment(experiments);
  const shown = parseVariantToken(token);
  if (!experiment || !shown || shown.experiment !== experiment.id) return null;
  return experiment.variants.some(({ id }) => id === shown.variant) ? shown : null;
}

/**
 * What a lead counts for in the running experiment, from the token its link carried (undefined:
 * none); null while no experiment runs.
 */
export function creditOf(experiments: Experiment[], token: string | undefined): LeadCredit | null {
  const experiment = runningExperiment(experiments);
  if (!experiment) return null;
  if (token === undefined) return { setAside: { experiment: experiment.id, reason: "no_variant" } };
  const shown = shownVariant(experiments, token);
  return shown
    ? { credited: shown }
    : { setAside: { experiment: experiment.id, reason: "unknown_variant" } };
}
