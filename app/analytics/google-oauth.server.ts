/**
 * Google's OAuth access token for the Google Ads API, from the refresh token (the
 * `refresh_token` grant), kept in memory until shortly before it expires and fetched once for
 * every call waiting on it. It is never logged and never written to the ledger: the outbox adds
 * it to a call's headers as the call is sent.
 */
import { postJson } from "~/platform/http-post.server";

export type OAuthClient = {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  oauthEndpoint: string;
};

type TokenPost = (
  url: URL,
  body: string,
  options: {
    timeoutMs: number;
    headers: Record<string, string>;
    onAnswer: (text: string) => void;
  },
) => Promise<number>;

export type TokenCache = {
  /** A token valid for a while yet: the cached one, or a fresh one. Rejects when none came. */
  get: () => Promise<string>;
  /** Forgets the cached token (Google refused it): the next call fetches another. */
  invalidate: () => void;
};

/** A token is used until this long before Google said it expires (or half its life, if shorter). */
export const TOKEN_MARGIN_MS = 5 * 60_000;
const TOKEN_TIMEOUT_MS = 5000;

export class TokenError extends Error {
  /** Google refused the refresh token itself (revoked, or the client's secret changed). */
  readonly credentials: boolean;
  constructor(readonly status: number) {
    // The status only: Google's answer may repeat what it was sent.
    super(`the OAuth endpoint answered ${status} without an access token`);
    this.name = "TokenError";
    this.credentials = status === 400 || status === 401;
  }
}

export function createTokenCache(
  client: OAuthClient,
  options: { post?: TokenPost; now?: () => number } = {},
): TokenCache {
  const post: TokenPost = options.post ?? postJson;
  const now = options.now ?? Date.now;
  let cached: { token: string; until: number } | null = null;
  let pending: Promise<string> | null = null;

  async function fetchToken(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: "refresh_token",
      client_id: client.clientId,
      client_secret: client.clientSecret,
      refresh_token: client.refreshToken,
    });
    let answer = "";
    const asked = now();
    const status = await post(new URL(client.oauthEndpoint), form.toString(), {
      timeoutMs: TOKEN_TIMEOUT_MS,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      onAnswer: (text) => (answer = text),
    });
    let parsed: { access_token?: unknown; expires_in?: unknown } = {};
    try {
      parsed = JSON.parse(answer);
    } catch {
      // no token in it
    }
    const token = parsed.access_token;
    if (status !== 200 || typeof token !== "string" || token === "") throw new TokenError(status);
    const lifeMs =
      typeof parsed.expires_in === "number" && parsed.expires_in > 0
        ? parsed.expires_in * 1000
        : 3600_000;
    cached = { token, until: asked + lifeMs - Math.min(TOKEN_MARGIN_MS, lifeMs / 2) };
    return token;
  }

  return {
    get() {
      if (cached && now() < cached.until) return Promise.resolve(cached.token);
      pending ??= fetchToken().finally(() => {
        pending = null;
      });
      return pending;
    },
    invalidate() {
      cached = null;
    },
  };
}
