/**
 * The app's own HTTP server: what remix-serve is made of (express, @remix-run/express,
 * compression, static files), in an order the app chooses, with the steps remix-serve could not
 * give it (docs/decisions/004-own-http-server.md):
 *
 *   request log (LOG_REQUESTS=1) → security headers and the nonce → shutdown's Connection: close
 *   → request guard → /readyz → the visit's kept campaign and Meta's id (cookies) → a landing
 *   page's experiment variant → cached documents (already gzipped) → /build from memory
 *   (precompressed, immutable) → compression (a HEAD as its GET) → public files → Remix, with the visitor's address
 *   in the load context → one-line errors
 */
import { join } from "node:path";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { bounded, logLine } from "~/platform/log-line.server";
import type { RequestContext } from "~/platform/request-context.server";
import type { Config } from "~/settings.server";
import type { Attribution } from "~/shared/attribution";
import type { Assignment } from "~/shared/experiment";
import { attribution } from "./attribution";
import { buildAssets, loadBuildAssets } from "./build-assets";
import { clientAddress } from "./client-address";
import type { DocumentCache } from "./document-cache";
import { experiments } from "./experiments";
import { readiness } from "./readiness";
import { requestGuard } from "./request-guard";
import { requestLog } from "./request-log";
import { securityHeaders } from "./security-headers";
import type { Services } from "./services";

export type HttpAppOptions = {
  /** The Remix server build (build/index.js). */
  build: ServerBuild;
  /** Where public/ is: the project's root. */
  root: string;
  config: Config;
  services: Services;
  /** null: every document is rendered (RENDER_CACHE=off). */
  documents: DocumentCache | null;
  /** Shutdown's middleware (server/shutdown.ts), mounted before anything can answer. */
  draining?: RequestHandler;
  /** Times every response for /metrics (server/metrics.ts), when METRICS_PORT is set. */
  observe?: RequestHandler;
  log: (line: string) => void;
};

/** An error nobody answered: one line in the log, a plain 500 to the client, never a stack. */
function errorHandler(log: (line: string) => void): ErrorRequestHandler {
  return (error, request, response, _next) => {
    log(
      logLine("request_error", {
        method: request.method,
        path: bounded(request.originalUrl.split("?", 1)[0] ?? ""),
        error: bounded(String((error as Error)?.message ?? error), 300),
      }),
    );
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response.statusCode = 500;
    response.setHeader("Content-Type", "text/plain; charset=utf-8");
    response.setHeader("Cache-Control", "no-store");
    response.end("Internal Server Error");
  };
}

/**
 * Whether Remix answers the request as a data request (`?_data=`, read as Remix reads it).
 * Remix takes `_data` off the URL before the loaders run, so they learn it from the context.
 */
function isDataRequest(originalUrl: string): boolean {
  try {
    return new URL(`http://localhost${originalUrl}`).searchParams.has("_data");
  } catch {
    return false;
  }
}

/** The request as compression() reads it, but a GET. */
function asGet(request: express.Request): express.Request {
  return Object.create(request, { method: { value: "GET", enumerable: true } });
}

export function createHttpApp(options: HttpAppOptions): express.Express {
  const { build, config, services, documents, log } = options;
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");

  if (options.observe) app.use(options.observe);
  if (config.logRequests) app.use(requestLog(log));
  app.use(securityHeaders({ siteUrl: config.siteUrl }));
  if (options.draining) app.use(options.draining);
  app.use(requestGuard);
  app.use(readiness(services.limits.store, services.ledger.state));
  // What the browser keeps between visits (the campaign, Meta's id): on cached pages too.
  app.use(attribution(config));
  // A landing page's variant, before the cache keeps or answers it per variant.
  if (config.experiments.some((experiment) => experiment.status === "running")) {
    app.use(experiments(config, services));
  }
  // First among what answers: a cached page costs no file lookup and no compression stream.
  if (documents) app.use(documents.middleware);
  // Content-hashed names: a file at a /build path never changes.
  app.use(
    buildAssets(loadBuildAssets(join(options.root, build.assetsBuildDirectory), build.publicPath)),
  );
  // A HEAD is answered as its GET, without the body (Remix runs the loaders for it, and the
  // routes that count a visit count only a GET). compression skips a HEAD, and would find its
  // empty body below its 1 kB threshold: a HEAD for a document (every one is many kB) is shown
  // to it as the GET, without the threshold, so it says the GET's Content-Encoding and Vary.
  const compress = compression();
  const compressHead = compression({
    threshold: 0,
    filter: (request, response) =>
      String(response.getHeader("Content-Type")).startsWith("text/html") &&
      compression.filter(request, response),
  });
  app.use((request, response, next) =>
    request.method === "HEAD"
      ? compressHead(asGet(request), response, next)
      : compress(request, response, next),
  );
  app.use(
    express.static(join(options.root, "public"), { maxAge: "1h", index: false, redirect: false }),
  );
  app.all(
    "*",
    createRequestHandler({
      build,
      mode: "production",
      getLoadContext: (request, response): RequestContext => {
        const key = response.locals.documentKey as string | null | undefined;
        return {
          clientAddress: clientAddress(
            request.socket.remoteAddress,
            request.headers["x-forwarded-for"],
            config.trustProxy,
          ),
          nonce: String(response.locals.nonce),
          config,
          services,
          documentKeeper: documents && key ? documents.keeper(key) : null,
          assignment: (response.locals.assignment as Assignment | null | undefined) ?? null,
          attribution: (response.locals.attribution as Attribution | undefined) ?? null,
          dataRequest: isDataRequest(request.originalUrl),
        };
      },
    }),
  );
  app.use(errorHandler(log));
  return app;
}
