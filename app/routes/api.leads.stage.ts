import { createHash, timingSafeEqual } from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { addressKey } from "~/leads/address-key.server";
import { createRateLimiter } from "~/leads/rate-limit.server";
import { MAX_STAGE_VALUE, recordStage, STAGES, type Stage } from "~/leads/stages.server";
import { readBounded } from "~/platform/bounded-body.server";
import { logLine } from "~/platform/log-line.server";
import { requestContext } from "~/platform/request-context.server";

/**
 * POST /api/leads/stage: the team or the app's back end says what became of a lead
 * (leads/stages.server.ts). Off (404) without LEADS_API_TOKEN; with it, only a request bearing
 * that token, compared in constant time. An address that keeps sending wrong ones is answered
 * 429 past 10, and logged once a minute at most: the token (32 characters or more) is beyond
 * guessing, and a right one from the same address (the team's back end behind one NAT) still
 * goes through. The body is JSON, at most 4 KB: `{"ref":"DRB-7K2QX","stage":"installed",
 * "value":150}` (value in AED, optional; reason, for a lost lead, optional).
 */

const MAX_BODY_BYTES = 4096;
/** Wrong tokens an address may send: 10, then one a minute. */
const wrongTokens = createRateLimiter({ capacity: 10, refillPerSecond: 1 / 60, maxKeys: 10_000 });

const answer = (status: number, body: object, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      ...headers,
    },
  });

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether the request bears `token`, compared in constant time (of their digests). */
function bears(request: Request, token: string): boolean {
  const given = /^Bearer ([\x21-\x7e]{1,512})$/.exec(request.headers.get("authorization") ?? "");
  return given?.[1] !== undefined && timingSafeEqual(digest(given[1]), digest(token));
}

type Asked = { ref: string; stage: Stage; value?: number; reason?: string };

/** The body's fields, checked, or what is wrong with them. */
function askedOf(body: unknown): Asked | string {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return 'the body must be a JSON object such as {"ref":"DRB-7K2QX","stage":"installed"}';
  }
  const { ref, stage, value, reason } = body as Record<string, unknown>;
  if (typeof ref !== "string" || ref.length > 40) return "ref must be the lead's reference";
  if (!STAGES.includes(stage as Stage)) return `stage must be one of ${STAGES.join(", ")}`;
  if (
    value !== undefined &&
    (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > MAX_STAGE_VALUE)
  ) {
    return `value must be an amount in AED from 0 to ${MAX_STAGE_VALUE}`;
  }
  if (reason !== undefined && (typeof reason !== "string" || reason.length > 100)) {
    return "reason must be text of at most 100 characters";
  }
  return {
    ref,
    stage: stage as Stage,
    ...(value !== undefined ? { value: value as number } : {}),
    ...(typeof reason === "string" ? { reason } : {}),
  };
}

export async function loader({ context }: LoaderFunctionArgs) {
  if (!requestContext(context).config.leadsApiToken) return answer(404, { error: "not found" });
  return answer(405, { error: "only POST" }, { Allow: "POST" });
}

export async function action({ request, context: loadContext }: ActionFunctionArgs) {
  const context = requestContext(loadContext);
  const token = context.config.leadsApiToken;
  if (!token) return answer(404, { error: "not found" });
  if (request.method !== "POST") return answer(405, { error: "only POST" }, { Allow: "POST" });
  const address = addressKey(context.clientAddress);
  if (!bears(request, token)) {
    const allowed = wrongTokens.take(address);
    context.services.log(logLine("leads_api_refused", { reason: "token", limited: !allowed }));
    return allowed
      ? answer(401, { error: "a valid bearer token is required" }, { "WWW-Authenticate": "Bearer" })
      : answer(429, { error: "too many wrong tokens; try again later" }, { "Retry-After": "60" });
  }
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
    return answer(415, { error: "the body must be application/json" });
  }
  const read = await readBounded(request, MAX_BODY_BYTES);
  if (!read.ok) {
    return read.reason === "too_large"
      ? answer(413, { error: `the body must be at most ${MAX_BODY_BYTES} bytes` })
      : answer(400, { error: "the body was cut short" });
  }
  let body: unknown;
  try {
    body = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    return answer(400, { error: "the body is not JSON" });
  }
  const asked = askedOf(body);
  if (typeof asked === "string") return answer(400, { error: asked });
  const result = await recordStage(context, asked);
  if (result.status !== 200) return answer(result.status, { error: result.error });
  const { status, ...told } = result;
  context.services.log(logLine("lead_stage", { ...told }));
  return answer(status, told);
}
