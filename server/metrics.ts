/**
 * /metrics for operators, in Prometheus's text format, on a port of its own (METRICS_PORT),
 * never the public one: leads and chats counted, each destination's outbox (owed, oldest owed,
 * outcomes), the render cache, and request latency by route. deploy/README.md lists the alerts.
 * The counts are read from the services when Prometheus asks, so nothing on a request's path
 * waits for them; only the latency is observed per request.
 */
import http from "node:http";
import type { RequestHandler } from "express";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Services } from "~/platform/services.server";
import type { DocumentCache } from "./document-cache";

/** The routes latency is told by: a fixed few, so no visitor can add a label value. */
export function routeLabel(path: string): string {
  const bare = path.split("?")[0] ?? "/";
  if (bare.startsWith("/build/")) return "/build";
  const page = bare.replace(/^\/ar(?=\/|$)/, "").replace(/\/+$/, "") || "/";
  const known = ["/", "/share", "/sitemap", "/thank-you", "/api/events", "/api/whatsapp/webhook"];
  if (known.includes(page)) return page;
  if (page === "/healthz" || page === "/readyz") return "/health";
  if (page.startsWith("/app-screens/")) return "/app-screens";
  return "other";
}

export type Metrics = {
  registry: Registry;
  /** Times each response, by route, method and status class. */
  observe: RequestHandler;
};

export function createMetrics(services: Services, documents: DocumentCache | null): Metrics {
  const registry = new Registry();
  const registers = [registry];

  // Since this process started: a counter set from the count it reads.
  function countFrom(
    name: string,
    help: string,
    labelNames: string[],
    read: () => Array<[Record<string, string>, number]>,
  ) {
    new Counter({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const [labels, value] of read()) if (value > 0) this.inc(labels, value);
      },
    });
  }

  countFrom("darb_leads_total", "Leads counted and kept in the ledger.", ["cta"], () =>
    Object.entries(services.ledger.counted().leads).map(([cta, n]) => [{ cta }, n]),
  );
  countFrom(
    "darb_chats_total",
    "WhatsApp chats seen, matched to a lead or not.",
    ["matched"],
    () => {
      const { chatsMatched, chatsUnmatched } = services.ledger.counted();
      return [
        [{ matched: "true" }, chatsMatched],
        [{ matched: "false" }, chatsUnmatched],
      ];
    },
  );
  countFrom(
    "darb_outbox_events_total",
    "Events that left an outbox, by destination and outcome.",
    ["destination", "outcome"],
    () =>
      services.analytics
        .destinations()
        .flatMap(({ name, outcomes }) =>
          Object.entries(outcomes).map(([outcome, n]): [Record<string, string>, number] => [
            { destination: name, outcome },
            n,
          ]),
        ),
  );
  new Gauge({
    name: "darb_outbox_pending_events",
    help: "Events owed to a destination, waiting in the ledger.",
    labelNames: ["destination"],
    registers,
    collect() {
      for (const { name, queued } of services.analytics.destinations())
        this.set({ destination: name }, queued);
    },
  });
  new Gauge({
    name: "darb_outbox_oldest_pending_seconds",
    help: "How long the oldest event owed to a destination has waited.",
    labelNames: ["destination"],
    registers,
    collect() {
      for (const { name, oldest_ms } of services.analytics.destinations())
        this.set({ destination: name }, oldest_ms / 1000);
    },
  });
  countFrom(
    "darb_render_cache_requests_total",
    "Document requests, answered from memory or not.",
    ["result"],
    () => {
      const counts = documents?.counts() ?? { hits: 0, misses: 0 };
      return [
        [{ result: "hit" }, counts.hits],
        [{ result: "miss" }, counts.misses],
      ];
    },
  );
  new Gauge({
    name: "darb_ledger_lead_write_seconds",
    help: "How long writing a lead and its calls to the ledger took, over the last 4096 leads.",
    labelNames: ["quantile"],
    registers,
    collect() {
      const { p50, p99, max } = services.ledger.leadWriteTimes();
      this.set({ quantile: "0.5" }, p50 / 1000);
      this.set({ quantile: "0.99" }, p99 / 1000);
      this.set({ quantile: "1" }, max / 1000);
    },
  });
  const latency = new Histogram({
    name: "darb_http_request_duration_seconds",
    help: "Time to answer, by route, method and status class.",
    labelNames: ["route", "method", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });

  const observe: RequestHandler = (request, response, next) => {
    const end = latency.startTimer();
    response.once("finish", () => {
      const method = ["GET", "HEAD", "POST"].includes(request.method) ? request.method : "other";
      end({
        route: routeLabel(request.url),
        method,
        status: `${Math.floor(response.statusCode / 100)}xx`,
      });
    });
    next();
  };

  return { registry, observe };
}

/** The metrics server: GET /metrics, and 404 for everything else. */
export function metricsServer(metrics: Metrics): http.Server {
  return http.createServer((request, response) => {
    if (request.method !== "GET" || (request.url ?? "").split("?")[0] !== "/metrics") {
      response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("not found\n");
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        response.writeHead(200, { "Content-Type": metrics.registry.contentType }).end(text);
      },
      () => {
        response.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("error\n");
      },
    );
  });
}
