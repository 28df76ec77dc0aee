import { createHash } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { getConfig } from "~/server/config.server";
import { recordClientEvents, visitorOf } from "~/server/leads.server";
import { createRateLimiter } from "~/server/rate-limit.server";
import { resourceHeaders } from "~/server/security-headers.server";
import { mayTrack } from "~/server/visitor.server";
import { LIMITS, validateBatch } from "~/shared/analytics-events";

// A visitor sends a batch every few seconds at most; a burst of 60, then one a second.
const limiter = createRateLimiter({ capacity: 60, refillPerSecond: 1, maxKeys: 50_000 });

const NO_STORE = { "Cache-Control": "no-store" };
const headers = (extra: Record<string, string> = {}) =>
  resourceHeaders({ ...NO_STORE, ...extra }, getConfig());

function problem(status: number, error: string, extra: Record<string, string> = {}) {
  return json({ error }, { status, headers: headers(extra) });
}

/** Only our own pages may post: browsers say so in Sec-Fetch-Site, or at least in Origin. */
function sameOrigin(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  return origin === new URL(request.url).origin || origin === new URL(getConfig().siteUrl).origin;
}

/**
 * Whom the limiter counts: the visitor's address or, without one (no trusted proxy), the user
 * agent, hashed: the limiter then holds at most 50,000 short keys, never 50,000 user agents of
 * up to 16 KB each.
 */
function limiterKey(request: Request): string {
  const { address } = visitorOf(request);
  if (address !== "unknown") return address;
  const agent = request.headers.get("user-agent") ?? "";
  return `agent:${createHash("sha256").update(agent).digest("base64url").slice(0, 22)}`;
}

async function readLimited(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return problem(405, "only POST is allowed", { Allow: "POST" });
  if (!sameOrigin(request)) return problem(403, "only this site's pages may send events");

  if (!limiter.take(limiterKey(request)))
    return problem(429, "too many requests; slow down", { "Retry-After": "5" });

  const type = request.headers.get("content-type") ?? "";
  if (!/^(application\/json|text\/plain)\b/i.test(type)) {
    return problem(400, "content-type must be application/json");
  }
  const text = await readLimited(request, LIMITS.bodyBytes);
  if (text === null) return problem(400, `body is larger than ${LIMITS.bodyBytes} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return problem(400, "body is not valid JSON");
  }
  const result = validateBatch(body);
  if (!result.ok) return problem(400, result.error);

  // Accepted either way: a bot or a Global Privacy Control browser is simply not recorded.
  if (mayTrack(request.headers)) recordClientEvents(request, result.events);
  return new Response(null, { status: 204, headers: headers() });
}

export async function loader() {
  return problem(405, "only POST is allowed", { Allow: "POST" });
}
