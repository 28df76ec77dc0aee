/**
 * GET /readyz: what this replica counts with, for an operator or a monitor. `/healthz` answers
 * as long as the process serves; this adds where the limits are kept (docs/decisions/010-shared-
 * state-on-redis.md). It answers 200 either way: a replica whose Redis is down still serves and
 * counts every lead, so no load balancer should take it out of rotation for that. Alert on
 * `"redis":"down"` instead.
 */
import type { RequestHandler } from "express";
import type { LimitsStore } from "~/leads/shared-limits.server";

const REDIS: Record<LimitsStore, "off" | "up" | "down"> = {
  memory: "off",
  redis: "up",
  "memory, redis down": "down",
};

export function readiness(store: () => LimitsStore): RequestHandler {
  return (request, response, next) => {
    if (request.path !== "/readyz" || (request.method !== "GET" && request.method !== "HEAD")) {
      next();
      return;
    }
    const now = store();
    const body = JSON.stringify({ status: "ok", limits: now, redis: REDIS[now] });
    response.statusCode = 200;
    response.setHeader("Content-Type", "application/json; charset=utf-8");
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("Content-Length", Buffer.byteLength(body));
    response.end(request.method === "HEAD" ? undefined : body);
  };
}
