/**
 * The headers every response carries, set in this one place just before its headers are written
 * (docs/decisions/004-own-http-server.md): an enforced CSP, HSTS on https, and the usual
 * hardening. A document (text/html) gets a nonce-based policy with this response's own nonce;
 * anything else (JSON, XML, text, scripts, images) one that allows nothing at all, since nothing
 * in it should ever run, load or be framed. Routes set none of these themselves.
 */
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import onHeaders from "on-headers";

export type SecurityOptions = {
  /** The public address; HSTS is only sent when it is https. */
  siteUrl: string;
};

/** 16 random bytes in base64: always 24 characters (the document cache relies on that). */
export const NONCE_LENGTH = 24;

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

export function documentPolicy(nonce: string, options: SecurityOptions): string {
  return [
    "default-src 'self'",
    // Only scripts carrying this response's nonce, and what they load themselves.
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    ...(options.siteUrl.startsWith("https:") ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** For responses that are not documents: nothing in them may run, load or be framed. */
export const RESOURCE_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

const COMMON: readonly [string, string][] = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["X-Frame-Options", "DENY"],
];

/** Every hardening header for a response about to be written; `nonce` is used if it is a document. */
export function hardeningHeaders(
  contentType: string,
  nonce: string,
  options: SecurityOptions,
): [string, string][] {
  const document = /^\s*text\/html\b/i.test(contentType);
  return [
    ["Content-Security-Policy", document ? documentPolicy(nonce, options) : RESOURCE_POLICY],
    ...COMMON,
    ...(options.siteUrl.startsWith("https:")
      ? [["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as [string, string]]
      : []),
  ];
}

/** Sets them on `response` (which may already have a Content-Type). */
export function harden(response: ServerResponse, nonce: string, options: SecurityOptions): void {
  const type = String(response.getHeader("content-type") ?? "");
  for (const [name, value] of hardeningHeaders(type, nonce, options)) {
    response.setHeader(name, value);
  }
  response.removeHeader("X-Powered-By");
}

/**
 * The middleware: a fresh nonce for the response (`res.locals.nonce`, handed to the render by
 * getLoadContext), and the headers set when the response's headers go out, whoever writes them:
 * Remix, the static files, the document cache, the guard or the error handler.
 */
export function securityHeaders(options: SecurityOptions): RequestHandler {
  return (_request, response, next) => {
    const nonce = newNonce();
    response.locals.nonce = nonce;
    onHeaders(response, () => harden(response, nonce, options));
    next();
  };
}
