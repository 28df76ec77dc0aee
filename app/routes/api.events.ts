import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { recordClientEvents, visitorOf } from "~/leads/leads.server";
import { mayTrack } from "~/leads/visitor.server";
import { readBounded } from "~/platform/bounded-body.server";
import { requestContext } from "~/platform/request-context.server";
import { LIMITS, validateBatch } from "~/shared/events";

const headers = (extra: Record<string, string> = {}) => ({ "Cache-Control": "no-store", ...extra });

function problem(status: number, error: string, extra: Record<string, string> = {}) {
  return json({ error }, { status, headers: headers(extra) });
}

/** Only our own pages may post: browsers say so in Sec-Fetch-Site, or at least in Origin. */
function sameOrigin(request: Request, siteUrl: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  return origin === new URL(request.url).origin || origin === new URL(siteUrl).origin;
}

export async function action({ request, context: loadContext }: ActionFunctionArgs) {
  if (request.method !== "POST") return problem(405, "only POST is allowed", { Allow: "POST" });
  const context = requestContext(loadContext);
  if (!sameOrigin(request, context.config.siteUrl)) {
    return problem(403, "only this site's pages may send events");
  }

  // Per visitor and per address (leads/limits.server.ts): one address changing its user agent
  // with every batch is still one address.
  if (!(await context.services.limits.batch(visitorOf(context, request)))) {
    return problem(429, "too many requests; slow down", { "Retry-After": "5" });
  }

  const type = request.headers.get("content-type") ?? "";
  if (!/^(application\/json|text\/plain)\b/i.test(type)) {
    return problem(400, "content-type must be application/json");
  }
  const read = await readBounded(request, LIMITS.bodyBytes);
  if (!read.ok) {
    return read.reason === "too_large"
      ? problem(400, `body is larger than ${LIMITS.bodyBytes} bytes`)
      : problem(400, "body was cut short");
  }
  const text = new TextDecoder().decode(read.bytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return problem(400, "body is not valid JSON");
  }
  const result = validateBatch(body);
  if (!result.ok) return problem(400, result.error);

  // Accepted either way: a bot or a Global Privacy Control browser is simply not recorded.
  if (mayTrack(request.headers))
    recordClientEvents(context, request, result.events, result.sessionId);
  return new Response(null, { status: 204, headers: headers() });
}

export async function loader() {
  return problem(405, "only POST is allowed", { Allow: "POST" });
}
