/**
 * What a destination's answer means for the call it answers, and the platform's own words for an
 * operator's log line. Four verdicts: delivered; sent again later (the destination failing);
 * refused for good (a 4xx sending again cannot change); and refused for the site's credentials
 * (an expired or revoked token), which is held rather than lost: the operator deploys a new
 * token, and the calls go out with it (docs/decisions/016-lead-ledger.md).
 */

/** The platform's own error, as it said it: for the log line, cut and never a secret. */
export type PlatformError = { code?: string; message?: string };

export type Verdict =
  | { kind: "delivered" }
  | ({ kind: "retry" } & PlatformError)
  | ({ kind: "refused" } & PlatformError)
  | ({ kind: "credentials" } & PlatformError);

/** The longest message of a platform's kept for the log. */
const MESSAGE_LIMIT = 200;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === "string" || typeof value === "number" ? String(value) : undefined;

/**
 * The error in an answer's body, in the shapes the destinations answer with: Meta's and Google's
 * `{"error":{"code","message",…}}` (Meta's subcode after a slash), TikTok's `{"code","message"}`,
 * an OAuth `{"error","error_description"}`, Snap's `{"reason"}`; else the body's first words.
 */
export function platformError(answer: string): PlatformError {
  const trimmed = answer.trim();
  if (!trimmed) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { message: trimmed.slice(0, MESSAGE_LIMIT) };
  }
  if (!isObject(parsed)) return {};
  const inner = isObject(parsed.error) ? parsed.error : parsed;
  const code = text(inner.code) ?? text(inner.status) ?? text(parsed.error) ?? text(parsed.status);
  const subcode = text(inner.error_subcode);
  const message =
    text(inner.message) ??
    text(inner.error_user_msg) ??
    text(parsed.error_description) ??
    text(parsed.reason) ??
    text(parsed.message);
  return {
    ...(code ? { code: subcode ? `${code}/${subcode}` : code } : {}),
    ...(message ? { message: message.slice(0, MESSAGE_LIMIT) } : {}),
  };
}

/** `error` with every one of `secrets` written as [secret]: a platform may repeat a token. */
export function withoutSecretsIn(error: PlatformError, secrets: readonly string[]): PlatformError {
  if (!error.message) return error;
  let message = error.message;
  for (const secret of secrets) {
    if (secret.length >= 8) message = message.split(secret).join("[secret]");
  }
  return { ...error, message };
}

/**
 * The verdict by HTTP status alone: 2xx delivered; 401 and 403 the credentials; 408, 429 and
 * anything else not a 4xx (5xx, a proxy's odd answer) sent again; any other 4xx refused.
 */
export function judgeStatus(status: number, answer = ""): Verdict {
  if (status >= 200 && status < 300) return { kind: "delivered" };
  const error = platformError(answer);
  if (status === 401 || status === 403) return { kind: "credentials", ...error };
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return { kind: "refused", ...error };
  }
  return { kind: "retry", ...error };
}

/**
 * Meta's Graph API answers most errors with a 400 and says what it was in `error.code`: 190 an
 * expired or revoked token, 102 a lost session, 10 and 200–299 a permission taken away (the
 * credentials); 1, 2, 4, 17, 32, 341 and 613 a passing outage or throttling (sent again).
 */
export function judgeMeta(status: number, answer: string): Verdict {
  const verdict = judgeStatus(status, answer);
  if (verdict.kind !== "refused") return verdict;
  const code = Number(verdict.code?.split("/")[0]);
  if (code === 190 || code === 102 || code === 10 || (code >= 200 && code <= 299)) {
    return { ...verdict, kind: "credentials" };
  }
  if ([1, 2, 4, 17, 32, 341, 613].includes(code)) return { ...verdict, kind: "retry" };
  return verdict;
}
