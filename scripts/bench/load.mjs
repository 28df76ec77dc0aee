// Load on the server: how much / it can render (closed loop, autocannon), and how fast it answers
// a realistic mix at a steady 300 req/s (open loop, paced here).
import { Agent, request } from "node:http";
import autocannon from "autocannon";

// What a phone's browser sends for a page: gzip accepted, a real user agent (bots get the page
// rendered whole instead of streamed, and /thank-you records no lead for them).
export const BROWSER = {
  "user-agent":
    "Mozilla/5.0 (Linux; Android 14; moto g power (2024)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "en-AE,en;q=0.9",
};

/**
 * GET / from 50 connections for 10 s, each sending its next request as soon as one returns, after
 * `warmup` requests that are not counted (a fresh server's first renders run unoptimised code).
 */
export async function throughput(
  url,
  { connections = 50, duration = 10, warmup = 100, visitors = 0 } = {},
) {
  // `visitors`: that many visitors, one address each behind the trusted proxy, in turn (an
  // experiment's variants and first views are per visitor); 0: one visitor.
  let next = 0;
  const requests = visitors
    ? [
        {
          setupRequest: (request) => {
            next = (next + 1) % visitors;
            const address = `10.${next >> 16}.${(next >> 8) & 255}.${next & 255}`;
            return { ...request, headers: { ...request.headers, "x-forwarded-for": address } };
          },
        },
      ]
    : undefined;
  const options = { url, headers: { ...BROWSER, "sec-fetch-dest": "document" }, requests };
  if (warmup) await autocannon({ ...options, connections: 5, amount: warmup });
  const result = await autocannon({ ...options, connections, duration });
  return {
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const EVENT_BODY = JSON.stringify({ events: [{ name: "page_view", params: { page_path: "/" } }] });

export const MIX = [
  { method: "GET", path: "/" },
  { method: "GET", path: "/share" },
  { method: "GET", path: "/thank-you?cta=whatsapp&source=bench" },
  {
    method: "POST",
    path: "/api/events",
    headers: {
      "content-type": "application/json",
      "sec-fetch-site": "same-origin",
      "content-length": String(Buffer.byteLength(EVENT_BODY)),
    },
    body: EVENT_BODY,
  },
];

// A different address per request (with TRUST_PROXY=1 on the server): thousands of visitors,
// as in production, rather than one address that /api/events' limiter would throttle.
const addressOf = (n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

const percentile = (sorted, p) =>
  sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
    : null;

/**
 * `rate` requests a second for `duration` seconds, cycling through MIX, each sent at its own
 * moment (start + n / rate) whether or not earlier ones have returned. Latency runs from that
 * moment, so time spent waiting for a free connection counts (no coordinated omission), and a
 * request still unanswered `timeoutMs` after its moment is abandoned as a timeout: when the
 * server cannot keep up, the queue stays bounded and the run still ends on time.
 *
 * Not autocannon's `overallRate`: it lets each connection send its quota for the second as fast
 * as it can and then wait for the next second, so all requests arrive in the first few hundred
 * milliseconds of every second; that measures a burst, not a steady rate.
 */
export async function fixedRate(baseUrl, { rate = 300, duration = 30, timeoutMs = 5000 } = {}) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const total = rate * duration;
  const latencies = [];
  const byPath = Object.fromEntries(MIX.map(({ path }) => [path, {}]));
  let timeouts = 0;
  let failures = 0;
  let settled = 0;
  let sent = 0;
  let closed = false;

  const start = performance.now();
  await new Promise((resolve) => {
    const close = () => {
      if (closed) return;
      closed = true;
      resolve();
    };
    const send = (n) => {
      const scheduled = start + (n * 1000) / rate;
      const item = MIX[n % MIX.length];
      const tally = (key) => {
        byPath[item.path][key] = (byPath[item.path][key] ?? 0) + 1;
      };
      let done = false;
      let deadline;
      const settle = (outcome) => {
        if (done || closed) return;
        done = true;
        clearTimeout(deadline);
        outcome();
        if (++settled === total) close();
      };
      const req = request(
        {
          agent,
          hostname,
          port,
          method: item.method,
          path: item.path,
          headers: { ...BROWSER, ...item.headers, "x-forwarded-for": addressOf(n) },
        },
        (res) => {
          res.resume();
          res.on("end", () =>
            settle(() => {
              latencies.push(performance.now() - scheduled);
              tally(res.statusCode);
            }),
          );
        },
      );
      deadline = setTimeout(
        () => {
          settle(() => {
            timeouts++;
            latencies.push(Number.POSITIVE_INFINITY);
            tally("timeout");
          });
          req.destroy();
        },
        Math.max(0, scheduled + timeoutMs - performance.now()),
      );
      req.on("error", (error) =>
        settle(() => {
          failures++;
          tally(error.code ?? error.message);
        }),
      );
      req.end(item.body);
    };
    const ticker = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (sent < due) send(sent++);
      if (sent >= total) clearInterval(ticker);
    }, 2);
    // Every request has its deadline; this only bounds the wait should one be lost anyway.
    setTimeout(close, duration * 1000 + timeoutMs + 2000).unref();
  });
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const answered = latencies.filter(Number.isFinite).length;
  let errors = timeouts + failures + (total - settled);
  for (const counts of Object.values(byPath)) {
    for (const [status, count] of Object.entries(counts)) {
      if (Number(status) >= 400) errors += count;
    }
  }
  return {
    rate,
    duration,
    timeoutMs,
    sent,
    answered,
    achievedRate: answered / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.filter(Number.isFinite).at(-1) ?? null,
    timeouts,
    errors,
    byPath: structuredClone(byPath),
  };
}
