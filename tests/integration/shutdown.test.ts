// SIGTERM to the real server while it is under load and GA4 hangs: it stops accepting, finishes
// what it accepted, sends the analytics queue for at most 5 s, and exits 0 within 10 s.
import http from "node:http";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { OutboxStats } from "~/analytics/outbox.server";
import {
  type ChildServer,
  crashSigns,
  eachRequestWith,
  type FakeGa,
  sleep,
  startChildServer,
  startFakeGa,
  startLoad,
  summary,
  visitorAddress,
  withLoadLock,
} from "../support/child-server";
import { ANDROID_CHROME } from "../support/user-agents";

const servers: ChildServer[] = [];
const fakes: FakeGa[] = [];
afterAll(async () => {
  for (const server of servers) await server.kill();
  for (const fake of fakes) await fake.close();
});

async function start(mode: "ok" | "slow") {
  const ga = await startFakeGa();
  await ga.setMode(mode);
  fakes.push(ga);
  const site = await startChildServer({
    GA_MEASUREMENT_ID: "G-TEST12345",
    GA_API_SECRET: "test_secret_1",
    GA_MP_ENDPOINT: ga.endpoint,
  });
  servers.push(site);
  return { ga, site };
}

type Outcome =
  | { kind: "ok"; status: number; at: number; connection: string | undefined }
  | { kind: "cut"; at: number; code: string }
  | { kind: "error"; at: number; code: string; reused: boolean };

/**
 * A browser-like visitor: GET / again and again on one keep-alive connection, noting how each
 * request ended. "cut" is the one that must never happen: an answer that started and broke off.
 */
async function visitor(origin: string, until: () => boolean, outcomes: Outcome[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (!until()) {
    const outcome = await new Promise<Outcome>((resolve) => {
      const request = http.get(
        `${origin}/`,
        { agent, headers: { "user-agent": ANDROID_CHROME } },
        (response) => {
          response.on("error", (error: NodeJS.ErrnoException) =>
            resolve({ kind: "cut", at: performance.now(), code: error.code ?? error.message }),
          );
          response.on("aborted", () =>
            resolve({ kind: "cut", at: performance.now(), code: "aborted" }),
          );
          response.on("end", () =>
            resolve({
              kind: "ok",
              status: response.statusCode ?? 0,
              at: performance.now(),
              connection: response.headers.connection,
            }),
          );
          response.resume();
        },
      );
      request.on("error", (error: NodeJS.ErrnoException) =>
        resolve({
          kind: "error",
          at: performance.now(),
          code: error.code ?? error.message,
          reused: request.reusedSocket,
        }),
      );
    });
    outcomes.push(outcome);
    if (outcome.kind === "error" && outcome.code === "ECONNREFUSED") break;
  }
  agent.destroy();
}

/** How requests ended, counted: "200/close", "200/keep-alive", "error:ECONNREFUSED", … */
function tally(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) {
    const key =
      outcome.kind === "ok"
        ? `${outcome.status}/${outcome.connection}`
        : `${outcome.kind}:${outcome.code}${outcome.kind === "error" && outcome.reused ? " (reused)" : ""}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function connect(origin: string): Promise<"connected" | string> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** POST /api/events whose body is only half sent: a request in flight until we finish it. */
function halfSentPost(origin: string) {
  const url = new URL(origin);
  const body = JSON.stringify({ events: [{ name: "page_view", params: { page_location: "/" } }] });
  const socket = net.connect(Number(url.port), url.hostname);
  let answer = "";
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    answer += chunk;
  });
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.on("error", () => undefined);
  socket.write(
    "POST /api/events HTTP/1.1\r\nHost: darb.example\r\nContent-Type: application/json\r\n" +
      `Sec-Fetch-Site: same-origin\r\nUser-Agent: ${ANDROID_CHROME}\r\nX-Forwarded-For: 192.0.2.55\r\n` +
      `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  return {
    finish: async () => {
      socket.write(body.slice(10));
      await Promise.race([closed, sleep(3000)]);
      return answer;
    },
  };
}

describe("SIGTERM", () => {
  it("under load, with GA4 hanging: finishes what it accepted, refuses the rest, flushes for 5 s, exits 0 within 10 s", async () => {
    const { site } = await start("slow");
    await withLoadLock(async () => {
      // Keep-alive connections: one idle, one in the middle of an upload, three busy visitors.
      const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const idleSocket = await new Promise<net.Socket>((resolve) => {
        const request = http.get(`${site.origin}/healthz`, { agent: idleAgent }, (response) => {
          response.resume();
          response.on("end", () => resolve(request.socket as net.Socket));
        });
      });
      let idleClosedAt = 0;
      idleSocket.on("close", () => {
        idleClosedAt = performance.now();
      });
      const upload = halfSentPost(site.origin);

      let stop = false;
      const outcomes: Outcome[] = [];
      const visitors = Array.from({ length: 3 }, () => visitor(site.origin, () => stop, outcomes));
      const pages = startLoad({
        url: `${site.origin}/`,
        headers: { "user-agent": ANDROID_CHROME },
        connections: 4,
        duration: 14,
      });
      // Leads from new visitors keep the analytics queue busy; GA4 hangs, so they pile up.
      const leads = startLoad({
        url: `${site.origin}/thank-you?cta=whatsapp&source=shutdown`,
        headers: { "user-agent": ANDROID_CHROME },
        connections: 2,
        duration: 14,
        // 10.9.x.y: apart from the 10.8.0.x of the certain leads below.
        requests: [eachRequestWith("x-forwarded-for", (n) => visitorAddress(0x090000 + n))],
      });
      const pagesDone = Promise.resolve(pages).then(summary);
      const leadsDone = Promise.resolve(leads).then(summary);
      // And 40 leads for certain, however slow this machine is today: 40 batches in the queue,
      // four at a time against a 2 s timeout, take longer than the 5 s the flush is given.
      const sure = await Promise.all(
        Array.from({ length: 40 }, async (_, index) => {
          const response = await fetch(`${site.origin}/thank-you?cta=demo&source=sure`, {
            headers: { "user-agent": ANDROID_CHROME, "x-forwarded-for": `10.8.0.${index + 1}` },
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      expect(sure.every((status) => status === 200)).toBe(true);
      await sleep(500);

      const signalled = performance.now();
      process.kill(site.pid, "SIGTERM");
      await sleep(300);
      const newConnection = await connect(site.origin);
      const uploadAnswer = await upload.finish();
      const exit = await Promise.race([site.exited, sleep(12_000).then(() => null)]);
      stop = true;
      pages.stop();
      leads.stop();
      const [home, thankYou] = await Promise.all([pagesDone, leadsDone]);
      await Promise.all(visitors);
      idleAgent.destroy();

      const afterSignal = outcomes.filter((outcome) => outcome.at > signalled);
      const line = site.lines.find((entry) => entry.type === "analytics_shutdown");
      console.log(
        `shutdown: exit ${JSON.stringify(exit && { code: exit.code, signal: exit.signal })} ` +
          `${exit ? (exit.at - signalled).toFixed(0) : ">12000"} ms after SIGTERM; ` +
          `idle keep-alive closed after ${idleClosedAt ? (idleClosedAt - signalled).toFixed(0) : "never"} ms; ` +
          `new connection: ${newConnection}; upload answer: ${uploadAnswer.split("\r\n")[0]}; ` +
          `visitors: ${outcomes.length} requests, after SIGTERM ${JSON.stringify(tally(afterSignal))}; autocannon / ${home.requests} (${JSON.stringify(home.statuses)}, ${home.errors} errors), ` +
          `/thank-you ${thankYou.requests} (${JSON.stringify(thankYou.statuses)}); ${JSON.stringify(line)}`,
      );

      // Exits on its own, with 0, within 10 s; and not before the flush had its 5 s with GA4
      // hanging (no sooner than 4.5 s, so it really waited for what was in flight).
      expect(exit, "still running 12 s after SIGTERM").not.toBeNull();
      expect(exit?.code).toBe(0);
      expect(exit?.signal).toBeNull();
      const took = (exit?.at ?? Number.POSITIVE_INFINITY) - signalled;
      expect(took).toBeLessThan(10_000);
      expect(took).toBeGreaterThan(4500);
      // Stops accepting at once; idle keep-alive connections are closed at once.
      expect(newConnection).toBe("ECONNREFUSED");
      expect(idleClosedAt).toBeGreaterThan(signalled);
      expect(idleClosedAt - signalled).toBeLessThan(1000);
      // The upload in flight when the signal came was answered, and told to close.
      expect(uploadAnswer).toMatch(/^HTTP\/1\.1 204 /);
      expect(uploadAnswer).toMatch(/\r\nConnection: close\r\n/i);
      // No accepted request was cut off; every answer was a 200.
      expect(outcomes.filter((outcome) => outcome.kind === "cut")).toEqual([]);
      for (const outcome of outcomes) if (outcome.kind === "ok") expect(outcome.status).toBe(200);
      // After the signal a visitor's next request on its connection is answered with
      // Connection: close, then the next one is refused. A keep-alive request racing the close of
      // an idle connection can fail before any answer (at most one per visitor), and so can a new
      // connection the kernel had taken in just as the server stopped: it is closed with the idle
      // ones before its request was read (seen once in a loaded CI run), a refusal all the same.
      const refusedOrRaced = afterSignal.filter((outcome) => outcome.kind === "error");
      expect(
        refusedOrRaced.every(
          (o) =>
            o.kind === "error" &&
            (o.code === "ECONNREFUSED" || o.code === "ECONNRESET" || o.reused),
        ),
        JSON.stringify(tally(afterSignal)),
      ).toBe(true);
      // One race per visitor (3), and the one connection the kernel may have taken in.
      expect(
        refusedOrRaced.filter((o) => o.kind === "error" && o.code !== "ECONNREFUSED").length,
        JSON.stringify(tally(afterSignal)),
      ).toBeLessThanOrEqual(4);
      expect(home.statuses["200"] ?? 0).toBeGreaterThan(0);
      expect(home.non2xx).toBe(0);
      expect(thankYou.non2xx).toBe(0);
      // The flush had its 5 s: nothing GA4 never answered is lost. Every lead's calls are still
      // owed in the ledger for the next start (decision 016), and together with what was sent
      // they are all that was recorded.
      expect(line).toBeDefined();
      const stats = line as OutboxStats;
      expect(stats.recorded).toBeGreaterThanOrEqual(80);
      expect(stats.dropped).toBe(0);
      expect(stats.queued).toBeGreaterThanOrEqual(80);
      expect(stats.sent + stats.dropped + stats.unconfirmed + stats.queued).toBe(stats.recorded);
      expect(crashSigns(site.stderr())).toEqual([]);
    });
  }, 60_000);

  it("with a client that never finishes its request: exits 0 at 9 s anyway, saying it was forced", async () => {
    const { site } = await start("ok");
    const stuck = halfSentPost(site.origin);
    await sleep(200);
    const signalled = performance.now();
    process.kill(site.pid, "SIGTERM");
    const exit = await Promise.race([site.exited, sleep(12_000).then(() => null)]);
    const took = (exit?.at ?? Number.POSITIVE_INFINITY) - signalled;
    const line = site.lines.find((entry) => entry.type === "shutdown");
    console.log(
      `shutdown (stuck client): exit ${exit?.code} after ${took.toFixed(0)} ms; ${JSON.stringify(line)}`,
    );
    void stuck.finish();
    expect(exit?.code).toBe(0);
    expect(took).toBeGreaterThan(8500);
    expect(took).toBeLessThan(10_000);
    expect(line).toMatchObject({ type: "shutdown", signal: "SIGTERM", forced: true });
  }, 30_000);

  it("idle, with GA4 healthy: sends what is queued and exits 0 at once", async () => {
    const { ga, site } = await start("ok");
    const lead = await fetch(`${site.origin}/thank-you?cta=email&source=idle`, {
      headers: { "user-agent": ANDROID_CHROME, "x-forwarded-for": "192.0.2.77" },
    });
    expect(lead.status).toBe(200);
    await lead.arrayBuffer();
    // An idle keep-alive connection must not hold the process open.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    await new Promise<void>((resolve) =>
      http.get(`${site.origin}/healthz`, { agent }, (response) => {
        response.resume();
        response.on("end", () => resolve());
      }),
    );
    const signalled = performance.now();
    process.kill(site.pid, "SIGTERM");
    const exit = await Promise.race([site.exited, sleep(12_000).then(() => null)]);
    agent.destroy();
    const line = site.lines.find((entry) => entry.type === "analytics_shutdown");
    const took = (exit?.at ?? Number.POSITIVE_INFINITY) - signalled;
    console.log(
      `shutdown (idle): exit ${exit?.code} after ${took.toFixed(0)} ms; ${JSON.stringify(line)}`,
    );
    expect(exit?.code).toBe(0);
    expect(took).toBeLessThan(2000);
    // campaign_details (the link was tagged source=idle), page_view (no session on the link),
    // conversion and generate_lead.
    expect(line).toMatchObject({ recorded: 4, sent: 4, dropped: 0, unconfirmed: 0, queued: 0 });
    expect(ga.counts().acknowledged).toBe(4);
  }, 30_000);
});
