/**
 * The headers every response carries (issue 6): an enforced CSP, HSTS on https, and the rest of
 * the usual hardening. Documents get a nonce-based policy; everything else (JSON, XML, text)
 * gets one that allows nothing at all, since nothing in it should ever run or load.
 */

export type SecurityOptions = {
  /** The public address; HSTS is only sent when it is https. */
  siteUrl: string;
  /** Remix's dev server talks to the page over a websocket. */
  development?: boolean;
};

function documentPolicy(nonce: string, options: SecurityOptions): string {
  const connect = options.development ? "'self' ws:" : "'self'";
  return [
    "default-src 'self'",
    // Only scripts carrying this response's nonce, and what they load themselves.
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    ...(options.siteUrl.startsWith("https:") ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** For responses that are not documents: nothing in them may run, load or be framed. */
const RESOURCE_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

const COMMON: readonly [string, string][] = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["X-Frame-Options", "DENY"],
];

/** Sets the hardening headers on `headers`; `nonce` marks a document. */
export function applySecurityHeaders(
  headers: Headers,
  options: SecurityOptions & { nonce?: string },
): Headers {
  headers.set(
    "Content-Security-Policy",
    options.nonce ? documentPolicy(options.nonce, options) : RESOURCE_POLICY,
  );
  for (const [name, value] of COMMON) headers.set(name, value);
  if (options.siteUrl.startsWith("https:")) {
    headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
  headers.delete("X-Powered-By");
  return headers;
}

/** Headers for a resource route's response (JSON, XML, text), hardened like every response. */
export function resourceHeaders(init: Record<string, string>, options: SecurityOptions): Headers {
  return applySecurityHeaders(new Headers(init), options);
}
