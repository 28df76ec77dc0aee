/**
 * The plans a lead may ask about, by id. content/plans.ts gives each its copy, and
 * leads/plans.ts fails to compile unless the two name the same plans.
 */
export type PlanId = "basic" | "plus" | "pro";
