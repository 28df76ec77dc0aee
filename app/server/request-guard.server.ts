/**
 * Requests that remix-serve would hand to Remix only to have them end in a 500, answered first:
 * a Host or X-Forwarded-Host the URL parser rejects (@remix-run/express builds the request URL
 * from them and throws), and writes to anything but /api/events (Remix 2.17 answers a
 * cross-origin write to a page with an empty 500 where a refusal is meant). Nothing here is
 * accepted anywhere else, so both get a plain 400 or 405.
 *
 * remix-serve creates its server out of our reach; Node's `http.server.request.start`
 * diagnostics channel names it with the first request, just before that request is handed to
 * the server's listeners, so the guard can be put in front of them then.
 */
import diagnostics from "node:diagnostics_channel";
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http";
import { getConfig } from "~/server/config.server";
import { resourceHeaders } from "~/server/security-headers.server";

export type Refusal = { status: 400 | 405; error: string };

const WRITABLE = /^\/api\/events\/?(?:\?|$)/;
const READS = new Set(["GET", "HEAD"]);

/** What follows the first ":" as a number, as @remix-run/express reads a port. */
const portOf = (value: string | undefined) => Number.parseInt(value?.split(":")[1] ?? "", 10);

/** Express's req.hostname without "trust proxy": Host up to its port, brackets kept. */
function hostnameOf(host: string | undefined): string {
  if (host === undefined) return "undefined";
  const offset = host.startsWith("[") ? host.indexOf("]") + 1 : 0;
  const colon = host.indexOf(":", offset);
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * Whether @remix-run/express can build a URL from these headers, checked the way it builds it:
 * the host name as express reads Host, and the port from X-Forwarded-Host, else from Host.
 * Anything it can build is let through, however odd (a comma list from a chain of proxies,
 * underscores in a container's name): only what would throw is refused.
 */
function buildsUrl(headers: IncomingHttpHeaders): boolean {
  // Node joins repeated headers with ", ", as express's req.get then reads them.
  const forwarded = portOf([headers["x-forwarded-host"] ?? []].flat().join(", ") || undefined);
  const own = portOf(headers.host);
  const port = Number.isSafeInteger(forwarded) ? forwarded : Number.isSafeInteger(own) ? own : "";
  try {
    new URL(`http://${hostnameOf(headers.host)}${port ? `:${port}` : ""}/`);
    return true;
  } catch {
    return false;
  }
}

export function refusal(method = "GET", url = "/", headers: IncomingHttpHeaders): Refusal | null {
  if (!buildsUrl(headers)) {
    return { status: 400, error: "the Host or X-Forwarded-Host header is not a host and port" };
  }
  if (!READS.has(method) && !WRITABLE.test(url)) {
    return { status: 405, error: "only GET and HEAD are allowed here" };
  }
  return null;
}

function refuse(response: ServerResponse, { status, error }: Refusal) {
  const body = JSON.stringify({ error });
  const headers = resourceHeaders(
    {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(body)),
      "Cache-Control": "no-store",
      ...(status === 405 ? { Allow: "GET, HEAD" } : {}),
    },
    getConfig(),
  );
  response.writeHead(status, Object.fromEntries(headers));
  response.end(body);
}

/** A body larger than this is not read to its end: the answer then closes the connection. */
const DISCARD_LIMIT = 64 * 1024;

/**
 * Answers once the request's body has been read and thrown away: a client still sending its
 * body would otherwise see the connection reset before it reads the answer.
 */
function refuseAfterBody(request: IncomingMessage, response: ServerResponse, verdict: Refusal) {
  let answered = false;
  const answer = (close: boolean) => {
    if (answered) return;
    answered = true;
    if (close) response.setHeader("Connection", "close");
    refuse(response, verdict);
  };
  if (request.complete) return answer(false);
  let seen = 0;
  request.on("data", (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DISCARD_LIMIT) answer(true);
  });
  request.once("end", () => answer(false));
  request.once("error", () => answer(true));
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;
const guarded = new WeakSet<Server>();

function guard(server: Server) {
  if (guarded.has(server)) return;
  guarded.add(server);
  const listeners = server.listeners("request") as Listener[];
  server.removeAllListeners("request");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const verdict = refusal(request.method, request.url, request.headers);
    if (verdict) return refuseAfterBody(request, response, verdict);
    for (const listener of listeners) listener.call(server, request, response);
  });
}

let installed = false;

/** Puts the guard in front of the server that receives this process's first request. */
export function installRequestGuard(): void {
  if (installed) return;
  installed = true;
  diagnostics.subscribe("http.server.request.start", (message) => {
    guard((message as { server: Server }).server);
  });
}
