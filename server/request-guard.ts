/**
 * Requests answered before they reach Remix, where Remix would only end them in a 500 or worse:
 * - an absolute-form request line (`GET http://host/ HTTP/1.1`, what a proxy is sent): read as
 *   the path it names, like the same request in the usual form; anything else that is not a
 *   path (`*`, junk) is a 400;
 * - a path whose percent-encoding is broken (`/%zz`): 400; a path with an escaped control
 *   character, line separator or backslash (`/x%0d`, `/x%E2%80%A8`, `/%5C`) is handed on with U+FFFD in its
 *   place, so it finds the not-found page like any other unknown path (Remix's routes match no
 *   line break, and answered with its error screen and a stack in the log);
 * - a Host or X-Forwarded-Host the URL parser rejects (@remix-run/express builds the request
 *   URL from them and throws): 400;
 * - writes to anything but /api/events, /api/whatsapp/webhook and /api/leads/stage (Remix 2.17
 *   answers a cross-origin write to a page with an empty 500 where a refusal is meant): 405;
 * - what Node would answer itself, without the security headers, if the server let it (server/
 *   site.ts hands these requests here instead): an HTTP/1.1 request without Host, 400; an
 *   `Expect` other than 100-continue, 417.
 * Nothing refused here is accepted anywhere else.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";

export type Refusal = { status: 400 | 405 | 417; error: string };

const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;
const WRITABLE = /^\/api\/(?:events|whatsapp\/webhook|leads\/stage)\/?(?:\?|$)/;
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

/**
 * The request target as a path and query: itself in the usual origin form, the path and query
 * of an absolute-form http(s) URL (its authority is not ours to follow: Host says which site),
 * or null for anything else.
 */
export function originForm(target: string): string | null {
  if (target.startsWith("/")) return target;
  if (!/^https?:\/\//i.test(target)) return null;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

/** Whether every `%` in the path starts a valid escape that decodes to UTF-8. */
function decodablePath(target: string): boolean {
  const path = target.split("?", 1)[0] ?? "";
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Escaped control characters; U+2028 and U+2029, which route patterns' `.` does not match; and
 * the backslash, which URL parsers read as a slash: the router makes a URL of the decoded path,
 * and `/\x y` read as `//x y` names a host that cannot be, which React Router answered with a 500.
 */
const CONTROL_ESCAPE = /%(?:[01][0-9a-f]|7f|5c)|%e2%80%a[89]/gi;

/** The target with each such escape in its path written as U+FFFD (no route has one). */
export function withoutControlEscapes(target: string): string {
  const query = target.indexOf("?");
  const path = query === -1 ? target : target.slice(0, query);
  const cleaned = path.replace(CONTROL_ESCAPE, "%EF%BF%BD");
  return cleaned === path ? target : `${cleaned}${query === -1 ? "" : target.slice(query)}`;
}

export function refusal(
  method = "GET",
  url = "/",
  headers: IncomingHttpHeaders,
  httpVersion = "1.0",
): Refusal | null {
  // As Node's own checks read them (lib/_http_server.js), for HTTP/1.1 only.
  if (httpVersion === "1.1" && !headers.host) {
    return { status: 400, error: "an HTTP/1.1 request must have a Host header" };
  }
  if (httpVersion === "1.1" && headers.expect !== undefined && !CONTINUE.test(headers.expect)) {
    return { status: 417, error: "only Expect: 100-continue is understood" };
  }
  const target = originForm(url);
  if (target === null) return { status: 400, error: "the request target is not a path" };
  if (!decodablePath(target)) {
    return { status: 400, error: "the path's percent-encoding is not valid" };
  }
  if (!buildsUrl(headers)) {
    return { status: 400, error: "the Host or X-Forwarded-Host header is not a host and port" };
  }
  if (!READS.has(method) && !WRITABLE.test(target)) {
    return { status: 405, error: "only GET and HEAD are allowed here" };
  }
  return null;
}

function refuse(response: ServerResponse, { status, error }: Refusal) {
  const body = JSON.stringify({ error });
  response.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "no-store",
    ...(status === 405 ? { Allow: "GET, HEAD" } : {}),
  });
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

/**
 * The middleware: refuses what `refusal` refuses, and hands on an absolute-form request as the
 * origin-form one it stands for, and control characters as U+FFFD, so every later step (static
 * files, the document cache, Remix) sees a plain path.
 */
export const requestGuard: RequestHandler = (request, response, next) => {
  const verdict = refusal(request.method, request.url, request.headers, request.httpVersion);
  if (verdict) return refuseAfterBody(request, response, verdict);
  const target = withoutControlEscapes(originForm(request.url) as string);
  if (target !== request.url) {
    request.url = target;
    request.originalUrl = target;
  }
  next();
};
