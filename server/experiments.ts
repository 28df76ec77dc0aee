/**
 * The running experiment's part in a landing page's request (docs/decisions/022-experiments.md):
 * before the document cache, so a kept page is kept per variant and a visitor's first view is
 * counted whether their page comes from memory or from a render. Mounted only while an
 * experiment runs; without one, no request does any of this.
 */
import type { RequestHandler } from "express";
import { assignmentKey, experimentOfRequest } from "~/experiments/visit.server";
import type { Config } from "~/settings.server";
import { clientAddress } from "./client-address";
import { headerReader } from "./header-reader";
import type { Services } from "./services";

/** The pages an experiment changes: the landing page in each language. */
const LANDING_PATHS = new Set(["/", "/ar", "/ar/"]);

export function experiments(config: Config, services: Services): RequestHandler {
  return (request, response, next) => {
    if (request.method !== "GET" && request.method !== "HEAD") return next();
    // Parsed as @remix-run/express does, so "//x" stays a path and is never a host.
    const url = new URL(`http://localhost${request.url}`);
    if (!LANDING_PATHS.has(url.pathname) || url.searchParams.has("_data")) return next();
    const assignment = experimentOfRequest(config, services, {
      address: clientAddress(
        request.socket.remoteAddress,
        request.headers["x-forwarded-for"],
        config.trustProxy,
      ),
      method: request.method,
      headers: headerReader(request.headers),
    });
    // For the render (the load context) and the document cache's key.
    response.locals.assignment = assignment;
    response.locals.experimentKey = assignmentKey(assignment);
    next();
  };
}
