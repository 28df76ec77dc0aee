/**
 * What lives as long as the process: where events go (GA4 or stdout, and Meta when opted in), and what each visitor and address may
 * count for. The app's own server creates one set at start and hands it to every request
 * (server/site.ts, through the load context), and flushes it on shutdown.
 */
import { createSink, type Sink } from "~/server/analytics.server";
import type { Config } from "~/server/config.server";
import { createLimits, type Limits } from "~/server/limits.server";

export type Services = {
  analytics: Sink;
  limits: Limits;
  /** The operator's counters (the stats line): the sink's and the limits'. */
  counters: () => Record<string, number>;
};

export function createServices(
  config: Pick<Config, "ga" | "gaEndpoint"> & Partial<Pick<Config, "meta">>,
  options: { writeLine?: (line: string) => void } = {},
): Services {
  const analytics = createSink({
    ga: config.ga,
    endpoint: config.gaEndpoint,
    meta: config.meta ?? null,
    ...options,
  });
  const limits = createLimits();
  return {
    analytics,
    limits,
    counters: () => ({ ...analytics.stats(), ...limits.stats() }),
  };
}
