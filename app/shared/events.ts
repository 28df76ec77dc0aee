/**
 * The analytics vocabulary and GA4's limits, shared by the browser (which trims to them) and
 * /api/events (which rejects what breaks them).
 */

/** What a browser may send. Leads are never among them: only the server records those. */
export const CLIENT_EVENTS = [
  "campaign_details",
  "page_view",
  "cta_click",
  "external_link_click",
  "navigation_click",
  "email_click",
  "social_share",
] as const;
/** The events a page always records (a link's data-event is one of them). */
export type PageEventName = (typeof CLIENT_EVENTS)[number];
/**
 * A browser's batch may also hold the experiment's impression (hooks/use-visit.ts), sent only
 * while an experiment runs: a list of its own, which the browser's bundle does not carry.
 */
export type ClientEventName = PageEventName | "experience_impression";
export const BATCH_EVENTS: readonly ClientEventName[] = /* @__PURE__ */ (
  CLIENT_EVENTS as readonly ClientEventName[]
).concat("experience_impression");
export type ServerEventName = "conversion" | "generate_lead";

export const LIMITS = {
  bodyBytes: 16 * 1024,
  eventsPerRequest: 25,
  // GA4 takes 25; the server adds session_id and engagement_time_msec to what a browser sends.
  paramsPerEvent: 23,
  paramNameLength: 40,
  paramValueLength: 100,
} as const;

/** GA4's own longer limits for three page parameters (characters); every other value is 100. */
const PARAM_VALUE_LENGTHS: Readonly<Record<string, number>> = {
  page_location: 1000,
  page_referrer: 420,
  page_title: 300,
};

export function maxValueLength(name: string): number {
  return PARAM_VALUE_LENGTHS[name] ?? LIMITS.paramValueLength;
}

/**
 * A GA4 session id as the browser keeps it (shared/session.ts: the second the session began)
 * or as the server derives it; carried on lead links as `sid`.
 */
export const SESSION_ID = /^[0-9]{1,20}$/;

export type ParamValue = string | number | boolean;
export type EventParams = Record<string, ParamValue>;
export type ClientEvent = { name: ClientEventName; params: EventParams };
/** An event as it leaves the site for GA4 (or the log without it): the browser's, or the server's own. */
export type OutboundEvent = { name: string; params: EventParams };

const PARAM_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;
// GA4 reserves these prefixes; the server sets session_id itself.
const RESERVED_PARAM = /^(google_|ga_|firebase_)|^session_id$/;
export const MAX_ENGAGEMENT_MS = 60 * 60 * 1000;

export function isClientEventName(value: unknown): value is PageEventName {
  return typeof value === "string" && (CLIENT_EVENTS as readonly string[]).includes(value);
}

type Result =
  | { ok: true; events: ClientEvent[]; sessionId?: string }
  | { ok: false; error: string };

function checkParams(
  raw: unknown,
  where: string,
): { ok: true; params: EventParams } | { ok: false; error: string } {
  if (raw === undefined) return { ok: true, params: {} };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    return { ok: false, error: `${where}.params must be an object` };
  }
  const entries = Object.entries(raw);
  if (entries.length > LIMITS.paramsPerEvent) {
    return { ok: false, error: `${where}.params has more than ${LIMITS.paramsPerEvent} entries` };
  }
  const params: EventParams = {};
  for (const [name, value] of entries) {
    if (
      name.length > LIMITS.paramNameLength ||
      !PARAM_NAME.test(name) ||
      RESERVED_PARAM.test(name)
    ) {
      return { ok: false, error: `${where} has a parameter name that is not allowed` };
    }
    if (typeof value === "string") {
      if (value.length > maxValueLength(name)) {
        return {
          ok: false,
          error: `${where}.params.${name} is longer than ${maxValueLength(name)} characters`,
        };
      }
    } else if (typeof value === "number") {
      if (!Number.isFinite(value))
        return { ok: false, error: `${where}.params.${name} is not a finite number` };
      if (name === "engagement_time_msec" && (value < 0 || value > MAX_ENGAGEMENT_MS)) {
        return { ok: false, error: `${where}.params.engagement_time_msec is out of range` };
      }
    } else if (typeof value !== "boolean") {
      return { ok: false, error: `${where}.params.${name} must be a string, number or boolean` };
    }
    params[name] = value;
  }
  return { ok: true, params };
}

/**
 * Checks a parsed request body `{ session_id?, events: [{ name, params }] }` against the rules
 * above.
 */
export function validateBatch(body: unknown): Result {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    return { ok: false, error: "body must be a JSON object with an events array" };
  }
  const { events, session_id: sessionId } = body as { events?: unknown; session_id?: unknown };
  if (sessionId !== undefined && (typeof sessionId !== "string" || !SESSION_ID.test(sessionId))) {
    return { ok: false, error: "session_id must be a string of at most 20 digits" };
  }
  if (!Array.isArray(events) || events.length === 0) {
    return { ok: false, error: "events must be a non-empty array" };
  }
  if (events.length > LIMITS.eventsPerRequest) {
    return { ok: false, error: `at most ${LIMITS.eventsPerRequest} events per request` };
  }
  const out: ClientEvent[] = [];
  for (const [index, event] of events.entries()) {
    const where = `events[${index}]`;
    if (!event || typeof event !== "object")
      return { ok: false, error: `${where} must be an object` };
    const { name, params } = event as { name?: unknown; params?: unknown };
    if (typeof name !== "string" || !(BATCH_EVENTS as readonly string[]).includes(name)) {
      return { ok: false, error: `${where}.name is not one of ${BATCH_EVENTS.join(", ")}` };
    }
    const checked = checkParams(params, where);
    if (!checked.ok) return checked;
    out.push({ name: name as ClientEventName, params: checked.params });
  }
  return sessionId === undefined ? { ok: true, events: out } : { ok: true, events: out, sessionId };
}

/** Trims what the browser is about to send so that the server never has to refuse it. */
export function fitParams(params: Record<string, ParamValue | undefined>): EventParams {
  const out: EventParams = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || Object.keys(out).length >= LIMITS.paramsPerEvent) continue;
    if (!PARAM_NAME.test(name) || name.length > LIMITS.paramNameLength || RESERVED_PARAM.test(name))
      continue;
    if (typeof value === "number" && !Number.isFinite(value)) continue;
    out[name] = typeof value === "string" ? cut(value, maxValueLength(name)) : value;
  }
  return out;
}

/** At most `max` UTF-16 units (GA4 counts characters so), never ending inside a surrogate pair. */
export function cut(value: string, max: number): string {
  if (value.length <= max) return value;
  const end = /[\ud800-\udbff]/.test(value[max - 1] ?? "") ? max - 1 : max;
  return value.slice(0, end);
}

/**
 * A URL's escaped text read (spaces, Arabic: each run of escapes that is whole UTF-8), but for
 * what would read as a separator or a "%", and control characters or other white space.
 */
function readableUrl(url: string): string {
  return url.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run).replace(/[;/?&=+#%\p{Cc}]|(?! )\s/gu, encodeURIComponent);
    } catch {
      return run;
    }
  });
}

/**
 * At most `max` characters of `value`, cut at a character's boundary: never inside a %XX
 * escape, a UTF-8 character's run of escapes, or a surrogate pair.
 */
export function cutUrl(value: string, max: number): string {
  let out = "";
  for (const part of value.match(/%[c-f][0-9a-f](?:%[89ab][0-9a-f]){1,3}|%[0-9a-f]{2}|[\s\S]/giu) ??
    []) {
    if (out.length + part.length > max) break;
    out += part;
  }
  return out;
}

/**
 * A URL as a GA4 value (link_url): as it is when it fits in `max` (GA4's 100 characters); else
 * read first when that is shorter (so more of it fits), and cut at a character's boundary.
 */
export function fitUrl(url: string, max: number = LIMITS.paramValueLength): string {
  if (url.length <= max) return url;
  const readable = readableUrl(url);
  return cutUrl(readable.length < url.length ? readable : url, max);
}
