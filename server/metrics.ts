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
import type { DocumentCache } from "./document-cache";
import type { Services } from "./services";

/** The routes latency is told by: a fixed few, so no visitor can add a label value. */
export function routeLabel(path: string): string {
  const bare = path.split("?")[0] ?? "/";
  if (bare.startsWith("/build/")) return "/build";
  const page = bare.replace(/^\/ar(?=\/|$)/, "").replace(/\/+$/, "") || "/";
  const known = [
    "/",
    "/share",
    "/sitemap",
    "/thank-you",
    "/api/events",
    "/api/view",
    "/api/whatsapp/webhook",
  ];
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

/** Every cta a lead can have: each series exists from the start, at 0. */
const CTAS = ["whatsapp", "email", "demo", "link"] as const;
const OUTCOMES = ["delivered", "refused", "unconfirmed", "given_up"] as const;
const STAGES = ["qualified", "installed", "lost"] as const;
/** Seconds: a lead's write takes well under a millisecond on a healthy disk (the bench's p99). */
const LEAD_WRITE_BUCKETS = [0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.05, 0.25];

type Registers = Registry[];
type DestinationReport = ReturnType<Services["analytics"]["destinations"]>[number];

/**
 * Since this process started: a counter set from the count it reads. Every series `read`
 * names is there from the start, 0 included, so an alert's increase() sees the first events
 * after a restart (a series that appears at 3 has no increase).
 */
function countFrom(
  registers: Registers,
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
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

/** A gauge per destination, set when Prometheus asks. */
function perDestination(
  registers: Registers,
  services: Services,
  name: string,
  help: string,
  read: (destination: DestinationReport) => number,
) {
  new Gauge({
    name,
    help,
    labelNames: ["destination"],
    registers,
    collect() {
      for (const destination of services.analytics.destinations())
        this.set({ destination: destination.name }, read(destination));
    },
  });
}

/** What the ledger counted since start: leads by cta, chats, later stages. */
function leadCounters(registers: Registers, services: Services) {
  countFrom(registers, "darb_leads_total", "Leads counted and kept in the ledger.", ["cta"], () => {
    const counted = services.ledger.counted().leads;
    return CTAS.map((cta) => [{ cta }, counted[cta] ?? 0]);
  });
  countFrom(
    registers,
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
    registers,
    "darb_lead_stages_total",
    "Later stages the team told of (api/leads/stage), by stage.",
    ["stage"],
    () => {
      const { stages } = services.ledger.counted();
      return STAGES.map((stage) => [{ stage }, stages[stage] ?? 0]);
    },
  );
}

/** Each destination's outbox: how its events ended, its troubles, and what it is owed. */
function outboxMetrics(registers: Registers, services: Services) {
  countFrom(
    registers,
    "darb_outbox_events_total",
    "Events that left an outbox, by destination and outcome.",
    ["destination", "outcome"],
    () =>
      services.analytics
        .destinations()
        .flatMap(({ name, outcomes }) =>
          OUTCOMES.map((outcome): [Record<string, string>, number] => [
            { destination: name, outcome },
            outcomes[outcome],
          ]),
        ),
  );
  countFrom(
    registers,
    "darb_outbox_uncertain_total",
    "Events sent with no answer (a timeout or a reset): they may have arrived; GA4 is sent a lead's once more 10 minutes later.",
    ["destination"],
    () =>
      services.analytics
        .destinations()
        .map(({ name, troubles }) => [{ destination: name }, troubles.uncertain]),
  );
  countFrom(
    registers,
    "darb_outbox_credentials_refused_total",
    "Events whose call the destination refused for the site's credentials (an expired token): held until a valid one is deployed.",
    ["destination"],
    () =>
      services.analytics
        .destinations()
        .map(({ name, troubles }) => [{ destination: name }, troubles.credentialsRefused]),
  );
  perDestination(
    registers,
    services,
    "darb_outbox_pending_events",
    "Events owed to a destination, waiting in the ledger.",
    ({ queued }) => queued,
  );
  perDestination(
    registers,
    services,
    "darb_outbox_oldest_pending_seconds",
    "How long the oldest event owed to a destination has waited.",
    ({ oldest_ms }) => oldest_ms / 1000,
  );
}

/** Whether this replica's disk takes the ledger's writes, and whether Redis answers it. */
function healthGauges(registers: Registers, services: Services) {
  new Gauge({
    name: "darb_ledger_failing",
    help: "1 while the data directory refuses the ledger's writes (full, read-only, failing): leads are held in memory until it takes them.",
    registers,
    collect() {
      this.set(services.ledger.state().failing ? 1 : 0);
    },
  });
  new Gauge({
    name: "darb_ledger_held_entries",
    help: "Ledger entries held in memory, waiting for the disk.",
    registers,
    collect() {
      this.set(services.ledger.state().held);
    },
  });
  new Gauge({
    name: "darb_ledger_skipped_lines",
    help: "Lines of the ledger skipped when this process read it at start (damaged, or of the wrong shape).",
    registers,
    collect() {
      this.set(services.ledger.state().skippedAtStart);
    },
  });
  new Gauge({
    name: "darb_ready",
    help: "1 while this replica serves with a ledger that writes; 0 while degraded (its disk refuses writes).",
    registers,
    collect() {
      this.set(services.ledger.state().failing ? 0 : 1);
    },
  });
  if (services.shared) {
    new Gauge({
      name: "darb_redis_up",
      help: "1 while Redis answers this replica; 0 while it counts in its own memory.",
      registers,
      collect() {
        this.set(services.limits.store() === "redis" ? 1 : 0);
      },
    });
  }
}

/**
 * The only metric observed on a request's path: the time to answer, by route, method and status
 * class. Returns the handler that times each response.
 */
function requestLatency(registers: Registers): RequestHandler {
  const latency = new Histogram({
    name: "darb_http_request_duration_seconds",
    help: "Time to answer, by route, method and status class.",
    labelNames: ["route", "method", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  return (request, response, next) => {
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
}

/**
 * Registered in the order /metrics lists them: the leads (leadCounters), the outboxes
 * (outboxMetrics), the render cache, the replica's health (healthGauges), the lead's write time,
 * and request latency (requestLatency).
 */
export function createMetrics(services: Services, documents: DocumentCache | null): Metrics {
  const registry = new Registry();
  const registers = [registry];
  leadCounters(registers, services);
  outboxMetrics(registers, services);
  countFrom(
    registers,
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
  healthGauges(registers, services);
  const leadWrites = new Histogram({
    name: "darb_ledger_lead_write_seconds",
    help: "How long writing a lead and its calls to the ledger took.",
    buckets: LEAD_WRITE_BUCKETS,
    registers,
  });
  services.ledger.watchLeadWrites((seconds) => leadWrites.observe(seconds));
  const observe = requestLatency(registers);
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
