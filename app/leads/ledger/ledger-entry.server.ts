/**
 * A ledger line read back at start, checked before it is believed: a file restored from
 * elsewhere, written by another build (a rollback), or damaged must cost the lines that are
 * wrong, never the server's start. A call is kept whatever its destination (one this build does
 * not know waits for the build that does), and without any credential an older build wrote
 * into it: credentials are added as a call is sent, never kept (outbox.server.ts).
 */
import { isReferral } from "~/leads/chat-referral.server";
import type { LedgerEntry, PendingCall } from "~/leads/ledger/ledger.server";
import { PHONE_OSES, type PhoneOs } from "~/leads/phone-os";
import { SET_ASIDE_REASONS } from "~/leads/variant-credit.server";

type Checked = { entry: LedgerEntry; dropped: string[] };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isText = (value: unknown, max = 4096): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= max;
const isTime = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0;
const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0;
const optional = (value: unknown, check: (value: unknown) => boolean) =>
  value === undefined || check(value);

const LEAD_STATUSES = new Set(["new", "chat_started"]);
const STAGES = new Set(["qualified", "installed", "lost"]);
const isHash = (value: unknown) => typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
const isPhone = (value: unknown) => isObject(value) && isHash(value.e164) && isHash(value.digits);
const OUTCOMES = new Set(["delivered", "refused", "unconfirmed", "given_up"]);
/** Names a credential goes by in a URL's query or a body, in any build that ever wrote one. */
const SECRET_NAMES = ["api_secret", "access_token"];

/** Why `value` is not a lead record, or null when it is one. */
function leadProblem(value: unknown): string | null {
  if (!isObject(value)) return "its lead is not an object";
  if (!isText(value.id, 200)) return "its lead has no id";
  if (!isTime(value.at)) return "its lead has no time";
  if (!isText(value.cta, 40)) return "its lead has no cta";
  if (!isObject(value.campaign)) return "its lead has no campaign";
  if (!isText(value.clientId, 200) || !isText(value.sessionId, 200)) {
    return "its lead has no GA4 ids";
  }
  if (!LEAD_STATUSES.has(value.status as string)) return "its lead's status is unknown";
  if (!optional(value.ref, (ref) => isText(ref, 40))) return "its lead's reference is not text";
  if (!optional(value.phone, isPhone)) return "its lead's phone is not two hashes";
  if (!optional(value.stages, isStages))
    return "its lead's stages are not stages with a time and value";
  if (
    !optional(value.ctwaClid, (id) => isText(id, 400)) ||
    !optional(value.account, (id) => isText(id, 100))
  ) {
    return "its lead's chat facts are not text";
  }
  if (
    !optional(value.fbp, (id) => isText(id, 100)) ||
    !optional(value.placement, (name) => isText(name, 40))
  ) {
    return "its lead's browser id or placement is not text";
  }
  if (!optional(value.experiment, isVariant)) return "its lead's variant is not an experiment's";
  if (!optional(value.experimentSetAside, isSetAside)) {
    return "its lead's set-aside is not an experiment with a known reason";
  }
  if (value.experiment !== undefined && value.experimentSetAside !== undefined) {
    return "its lead is both credited to a variant and set aside";
  }
  if (!optional(value.os, (os) => PHONE_OSES.includes(os as PhoneOs))) {
    return "its lead's phone system is unknown";
  }
  if (!optional(value.linkSentAt, isTime)) return "its lead's link-sent time is no time";
  return null;
}

/** An experiment's or a variant's id, as the experiments file allows them. */
const isId = (value: unknown) => typeof value === "string" && /^[A-Za-z0-9_]{1,40}$/.test(value);
const isVariant = (value: unknown) => isObject(value) && isId(value.id) && isId(value.variant);
const SET_ASIDE = new Set<unknown>(SET_ASIDE_REASONS);
const isSetAside = (value: unknown) =>
  isObject(value) && isId(value.experiment) && SET_ASIDE.has(value.reason);

/** A lead's stages: each a known stage, with its time and its value. */
function isStages(value: unknown): boolean {
  return (
    isObject(value) &&
    Object.entries(value).every(
      ([stage, told]) =>
        STAGES.has(stage) &&
        isObject(told) &&
        isTime(told.at) &&
        typeof told.value === "number" &&
        Number.isFinite(told.value),
    )
  );
}

function chatProblem(value: unknown): string | null {
  if (!isObject(value)) return "its chat is not an object";
  if (!isText(value.messageId, 400)) return "its chat has no message id";
  if (!isTime(value.at)) return "its chat has no time";
  if (value.lead !== null && !isText(value.lead, 200)) return "its chat's lead is not an id";
  if (!optional(value.referral, isReferral)) {
    return "its chat's ad is not an ad's id, type and headline";
  }
  if (
    !optional(value.ctwaClid, (id) => isText(id, 400)) ||
    !optional(value.account, (id) => isText(id, 100))
  ) {
    return "its chat's click id or account is not text";
  }
  return null;
}

function callProblem(value: unknown): string | null {
  if (!isObject(value)) return "not an object";
  if (!isText(value.id, 200)) return "no id";
  if (!isText(value.destination, 40)) return "no destination";
  if (!isText(value.url, 4096)) return "no url";
  if (typeof value.body !== "string") return "no body";
  if (!isCount(value.events) || !isTime(value.at)) return "no events or time";
  if (!isCount(value.attempt) || !isTime(value.dueAt) || !isCount(value.uncertain)) {
    return "no attempt, due time or uncertain count";
  }
  if (!optional(value.lead, (lead) => isText(lead, 200))) return "its lead is not an id";
  return null;
}

/** `url` without a credential in its query. */
function urlWithoutSecrets(url: string): string {
  if (!SECRET_NAMES.some((name) => url.includes(name))) return url;
  try {
    const parsed = new URL(url);
    for (const name of SECRET_NAMES) parsed.searchParams.delete(name);
    return parsed.href;
  } catch {
    return url;
  }
}

/** A JSON body without a credential at its top level (Meta's access_token, as once written). */
function bodyWithoutSecrets(body: string): string {
  if (!SECRET_NAMES.some((name) => body.includes(`"${name}"`))) return body;
  try {
    const parsed = JSON.parse(body) as unknown;
    if (!isObject(parsed)) return body;
    for (const name of SECRET_NAMES) delete parsed[name];
    return JSON.stringify(parsed);
  } catch {
    return body;
  }
}

/** A call as the ledger keeps it: without any credential. */
export function withoutSecrets(call: PendingCall): PendingCall {
  const url = urlWithoutSecrets(call.url);
  const body = bodyWithoutSecrets(call.body);
  return url === call.url && body === call.body ? call : { ...call, url, body };
}

/** The calls of a list that are calls (kept without credentials), and why the others are not. */
function checkCalls(value: unknown, dropped: string[]): PendingCall[] | string {
  if (!Array.isArray(value)) return "its calls are not a list";
  const calls: PendingCall[] = [];
  value.forEach((call, index) => {
    const problem = callProblem(call);
    if (problem) dropped.push(`call ${index + 1} skipped: ${problem}`);
    else calls.push(withoutSecrets(call as PendingCall));
  });
  return calls;
}

/**
 * The entry `value` is, checked and cleaned, with the reasons any of its calls were dropped; or,
 * when the line as a whole cannot be believed, why.
 */
export function checkEntry(value: unknown): Checked | string {
  if (!isObject(value)) return "not an entry (an object with a type)";
  const dropped: string[] = [];
  const done = (entry: LedgerEntry): Checked => ({ entry, dropped });
  switch (value.t) {
    case "lead":
    case "chat": {
      const problem = value.t === "lead" ? leadProblem(value.lead) : chatProblem(value.chat);
      if (problem) return problem;
      const calls = value.calls === undefined ? [] : checkCalls(value.calls, dropped);
      if (typeof calls === "string") return calls;
      return done(
        value.t === "lead"
          ? { t: "lead", lead: value.lead as never, calls }
          : { t: "chat", chat: value.chat as never, calls },
      );
    }
    case "calls": {
      const calls = checkCalls(value.calls, dropped);
      if (typeof calls === "string") return calls;
      return done({ t: "calls", calls });
    }
    case "status":
      if (!isText(value.id, 200) || !isTime(value.at)) return "a status without its lead or time";
      if (!LEAD_STATUSES.has(value.status as string)) return "an unknown lead status";
      if (!optional(value.phone, isPhone)) return "a status whose phone is not two hashes";
      if (
        !optional(value.ctwaClid, (id) => isText(id, 400)) ||
        !optional(value.account, (id) => isText(id, 100))
      ) {
        return "a status whose chat facts are not text";
      }
      return done(value as LedgerEntry);
    case "stage": {
      if (!isText(value.id, 200) || !isTime(value.at)) return "a stage without its lead or time";
      if (!STAGES.has(value.stage as string)) return "an unknown stage";
      if (typeof value.value !== "number" || !Number.isFinite(value.value)) {
        return "a stage without its value";
      }
      const calls = value.calls === undefined ? [] : checkCalls(value.calls, dropped);
      if (typeof calls === "string") return calls;
      return done({ ...(value as LedgerEntry & { t: "stage" }), calls });
    }
    case "link": {
      if (!isText(value.id, 200) || !isTime(value.at))
        return "a link sent without its lead or time";
      const calls = value.calls === undefined ? [] : checkCalls(value.calls, dropped);
      if (typeof calls === "string") return calls;
      return done({ ...(value as LedgerEntry & { t: "link" }), calls });
    }
    case "send":
      if (!isText(value.id, 200)) return "a send without its call";
      return done({ t: "send", id: value.id });
    case "retry":
      if (!isText(value.id, 200) || !isCount(value.attempt) || !isTime(value.dueAt)) {
        return "a retry without its call, attempt or due time";
      }
      if (!isCount(value.uncertain)) return "a retry without its uncertain count";
      return done(value as LedgerEntry);
    case "done":
      if (!isText(value.id, 200) || !OUTCOMES.has(value.outcome as string)) {
        return "a done without its call or outcome";
      }
      return done(value as LedgerEntry);
    case "exposure":
    case "exposures":
      if (!isText(value.day, 10) || !isText(value.experiment, 40) || !isText(value.variant, 40)) {
        return "an exposure without its day, experiment or variant";
      }
      if (value.t === "exposures" && !isCount(value.count)) return "exposures without a count";
      return done(value as LedgerEntry);
    case "replica":
      if (!isText(value.id, 64)) return "a replica without its id";
      return done({ t: "replica", id: value.id });
    default:
      return `an unknown entry type ${JSON.stringify(String(value.t).slice(0, 20))}`;
  }
}
