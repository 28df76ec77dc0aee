/**
 * Which variant a visitor sees: GrowthBook's SDK hashes the experiment's id and the visitor's
 * cookieless id into a bucket (docs/decisions/022-experiments.md), so the same visitor gets the
 * same variant on every request that day, on every replica, with nothing stored.
 */
import { GrowthBookClient } from "@growthbook/growthbook";
import type { Assignment, Experiment } from "~/shared/experiment";

// One client for the process: it holds no visitor; each call passes the visitor's attributes.
// No API host and no features: only inline experiments run, so it never calls the network.
const growthbook = new GrowthBookClient({});

/**
 * The variant `visitorId` takes part with in `experiment`, or null when the visitor falls
 * outside its traffic share (they see the control and are not counted).
 */
export function assign(experiment: Experiment, visitorId: string): Assignment | null {
  const total = experiment.variants.reduce((sum, variant) => sum + variant.weight, 0);
  const result = growthbook.runInlineExperiment(
    {
      key: experiment.id,
      variations: experiment.variants.map((variant) => variant.id) as [string, string, ...string[]],
      // GrowthBook wants weights that add up to 1; the file takes any positive numbers.
      weights: experiment.variants.map((variant) => variant.weight / total),
      coverage: experiment.traffic,
      hashAttribute: "id",
      hashVersion: 2,
    },
    { attributes: { id: visitorId } },
  );
  if (!result.inExperiment) return null;
  return { experiment: experiment.id, variant: result.value };
}
