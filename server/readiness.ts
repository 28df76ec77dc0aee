/**
 * GET /readyz: what this replica counts and keeps leads with, for an operator or a monitor.
 * `/healthz` answers as long as the process serves; this adds where the limits are kept
 * (docs/decisions/010-shared-state-on-redis.md) and whether the ledger's disk takes its writes
 * (docs/decisions/016-lead-ledger.md). It answers 200 either way: a replica whose Redis is down,
 * or whose disk is full, still serves, counts every lead and holds what it cannot write, so no
 * load balancer should take it out of rotation for that (every replica at once would be the site
 * down). Alert on `"status":"degraded"` instead (deploy/alerts.yml watches /metrics alike).
 */
import type { RequestHandler } from "express";
import type { JournalState } from "~/leads/ledger/journal.server";
import type { LimitsStore } from "~/leads/shared-limits.server";

const REDIS: Record<LimitsStore, "off" | "up" | "down"> = {
  memory: "off",
  redis: "up",
  "memory, redis down": "down",
};

const WRITING: JournalState = { failing: null, failingSince: null, held: 0 };

export function readiness(
  store: () => LimitsStore,
  ledger: () => JournalState = () => WRITING,
): RequestHandler {
  return (request, response, next) => {
    if (request.path !== "/readyz" || (request.method !== "GET" && request.method !== "HEAD")) {
      next();
      return;
    }
    const limits = store();
    const disk = ledger();
    const redis = REDIS[limits];
    const body = JSON.stringify({
      status: redis === "down" || disk.failing ? "degraded" : "ok",
      limits,
      redis,
      ledger: disk.failing ? "failing" : "writing",
      ...(disk.failing ? { ledger_error: disk.failing, ledger_held: disk.held } : {}),
    });
    response.statusCode = 200;
    response.setHeader("Content-Type", "application/json; charset=utf-8");
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("Content-Length", Buffer.byteLength(body));
    response.end(request.method === "HEAD" ? undefined : body);
  };
}
