/**
 * The whole site in one call: the services, the document cache, the HTTP server and its
 * shutdown, listening. server/main.ts runs it for `npm start` and the container; the
 * integration tests run it (from the build) in their own process, so msw can stand in for GA4.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { ServerBuild } from "@remix-run/node";
import { statsReporter } from "~/analytics/sink.server";
import { writeLogLine } from "~/platform/log-line.server";
import type { Config } from "~/settings.server";
import { createDocumentCache } from "./document-cache";
import { createHttpApp } from "./http-app";
import { createMetrics, metricsServer } from "./metrics";
import { hardeningHeaders, newNonce } from "./security-headers";
import { createServices, type Services } from "./services";
import { createShutdown, type Shutdown } from "./shutdown";

/** How often the operator sees the counters (when they changed), and unused pages leave memory. */
export const STATS_INTERVAL_MS = 60_000;
const COLLECT_INTERVAL_MS = 60_000;

export type Site = {
  server: http.Server;
  origin: string;
  services: Services;
  shutdown: Shutdown;
};

/** What Node's own parser answers for these errors; anything else it cannot read is a 400. */
const PARSE_ERROR_STATUS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout"],
};

/**
 * A request Node could not parse (a broken request line or header) gets the answer Node would
 * give, with the usual headers, and at most one line in the log, never a stack. As Node does,
 * nothing is written while an answer on the same connection is under way (it would corrupt
 * that answer), and the connection is closed. A connection the client reset is only closed.
 */
function answerClientErrors(server: http.Server, config: Config, log: (line: string) => void) {
  const answering = new WeakMap<Socket, http.ServerResponse>();
  server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
    answering.set(request.socket, response);
    response.once("close", () => {
      if (answering.get(request.socket) === response) answering.delete(request.socket);
    });
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    log(JSON.stringify({ type: "bad_request", code: error.code ?? "unknown" }));
    const [status, reason] = PARSE_ERROR_STATUS[error.code ?? ""] ?? [400, "Bad Request"];
    if (socket.writable && !answering.get(socket)?.headersSent) {
      const headers = [
        ["Content-Length", "0"],
        ["Cache-Control", "no-store"],
        ["Connection", "close"],
        ...hardeningHeaders("", newNonce(), config),
      ];
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\n${headers.map(([n, v]) => `${n}: ${v}`).join("\r\n")}\r\n\r\n`,
      );
    }
    socket.destroy();
  });
}

export async function startSite(options: {
  build: ServerBuild;
  config: Config;
  root: string;
  /** Where log lines go (stdout by default). */
  log?: (line: string) => void;
  exit?: (code: number) => void;
  /** Overrides config.port/host (tests: 0 and loopback). */
  listen?: { port: number; host?: string };
}): Promise<Site> {
  const { build, config, root } = options;
  const log = options.log ?? writeLogLine;
  const services = createServices(config, { writeLine: log });
  const documents = config.renderCache ? createDocumentCache() : null;
  const metrics = config.metricsPort === null ? null : createMetrics(services, documents);
  const metricsHttp = metrics ? metricsServer(metrics) : null;

  // Node would answer a request without Host, or with an Expect it does not know, itself and
  // without the security headers: the request guard answers them instead (server/request-guard.ts).
  const server = http.createServer({ requireHostHeader: false });
  const shutdown = createShutdown({
    server,
    exit: options.exit ?? ((code) => process.exit(code)),
    log,
    hooks: {
      flush: (deadlineMs) => services.analytics.flush(deadlineMs),
      beforeExit: () => {
        metricsHttp?.close();
        metricsHttp?.closeAllConnections();
        services.analytics.close();
        services.close();
        log(JSON.stringify({ type: "analytics_shutdown", ...services.counters() }));
      },
    },
  });
  const app = createHttpApp({
    build,
    root,
    config,
    services,
    documents,
    draining: shutdown.middleware,
    observe: metrics?.observe,
    log,
  });
  server.on("request", app);
  server.on("checkExpectation", app);
  answerClientErrors(server, config, log);

  setInterval(statsReporter(services.counters, log), STATS_INTERVAL_MS).unref();
  if (documents) setInterval(documents.collect, COLLECT_INTERVAL_MS).unref();

  const port = options.listen?.port ?? config.port;
  const host = options.listen?.host ?? config.host;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // Operators' metrics on a port of their own, on the same interface: never the public one.
  if (metricsHttp && config.metricsPort !== null) {
    const metricsPort = config.metricsPort;
    await new Promise<void>((resolve, reject) => {
      metricsHttp.once("error", (error) =>
        reject(Object.assign(error, { setting: "METRICS_PORT" })),
      );
      metricsHttp.listen(metricsPort, host, () => {
        metricsHttp.off("error", reject);
        resolve();
      });
    });
  }
  const address = server.address() as AddressInfo;
  const wildcard = address.address === "::" || address.address === "0.0.0.0";
  const shown = wildcard
    ? "localhost"
    : address.family === "IPv6"
      ? `[${address.address}]`
      : address.address;
  return { server, origin: `http://${shown}:${address.port}`, services, shutdown };
}
