/**
 * The rules that keep /thank-you from ever becoming an open redirect. Every address that leaves
 * here is rebuilt from configuration and parsed parts, never echoed from the query string.
 */

import { refInText } from "~/leads/chat-ref";
import { type PlanId, parsePlan } from "~/leads/plans";
import { type Campaign, campaignFrom } from "~/shared/campaign";
import { whatsappLink } from "~/shared/contact-links";
import {
  type CtaType,
  contactHref,
  FBCLID_AT_PARAM,
  fbclidSeenAt,
  isCtaType,
  PLACEMENT_PARAM,
  SESSION_PARAM,
  VARIANT_PARAM,
} from "~/shared/cta";
import { SESSION_ID } from "~/shared/events";

export type Targets = {
  whatsappNumber: string;
  email: string;
  demoUrl: string;
  whatsappMessage: string;
  emailSubject: string;
  /** The message each plan's WhatsApp button opens, in the page's language. */
  planMessages?: Record<PlanId, string>;
};

export type ThankYou = {
  cta: CtaType | null;
  /** The visit's campaign, as the lead link carried it, cleaned. */
  campaign: Campaign;
  /** The browser's GA4 session (`sid`), when the link came with a well-formed one. */
  sessionId?: string;
  /**
   * When the campaign's fbclid was first seen (`fbclid_at`, ms): only with an fbclid, and only a
   * time that is not in the future nor older than Meta's 90 days.
   */
  fbclidAt?: number;
  /**
   * The running experiment's variant the visitor's page showed, as the link carried it (`exp`):
   * checked against the running experiment where the lead is counted
   * (leads/variant-credit.server.ts), never shown on the page. Absent when the link carried none.
   */
  variant?: string;
  /** Where the tapped button sits (`pl`: "hero", "sticky", "plan-pro"): a known shape, else left out. */
  placement?: string;
  /** The plan a plan's button asked about: a known id, else left out. */
  plan?: PlanId;
  /** Where the delayed redirect goes; null shows the thanks and the way back only. */
  target: string | null;
  returnUrl: string;
};

const MAX_REDIRECT_LENGTH = 2048;
const MAX_RETURN_LENGTH = 512;
const MAX_TEXT_LENGTH = 500;
/**
 * Control characters, any whitespace, zero-width and bidi-control characters, and backslashes,
 * which URL parsers read as slashes: none belongs in an address we send people to.
 */
function hasUnsafeChar(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || char === "\\" || /\s/u.test(char))
      return true;
    if ((code >= 0x200b && code <= 0x200f) || (code >= 0x202a && code <= 0x202e)) return true;
    if ((code >= 0x2060 && code <= 0x206f) || code === 0xfeff) return true;
  }
  return false;
}

function parseHttps(raw: string): URL | null {
  if (raw.length > MAX_REDIRECT_LENGTH || hasUnsafeChar(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.username || url.password || url.port) return null;
  return url;
}

function whatsappTarget(url: URL, targets: Targets): string | null {
  const text = url.searchParams.get("text") ?? undefined;
  if (text !== undefined && text.length > MAX_TEXT_LENGTH) return null;
  // The chat's reference is the site's to add (leads/chat-ref.ts): a link quoting one of its own
  // would hand the visitor's chat, and its campaign's credit, to another lead.
  if (text !== undefined && refInText(text) !== null) return null;
  if (url.hostname === "wa.me") {
    if (url.pathname !== `/${targets.whatsappNumber}`) return null;
  } else if (url.hostname === "api.whatsapp.com") {
    if (url.pathname !== "/send" || url.searchParams.get("phone") !== targets.whatsappNumber) {
      return null;
    }
  } else {
    return null;
  }
  // Only the chat with our own number; the prefilled text is the visitor's to edit anyway.
  return whatsappLink(targets.whatsappNumber, text);
}

function demoTarget(url: URL, targets: Targets): string | null {
  const demo = new URL(targets.demoUrl);
  if (url.origin !== demo.origin) return null;
  const base = demo.pathname.endsWith("/") ? demo.pathname : `${demo.pathname}/`;
  if (url.pathname !== demo.pathname && !url.pathname.startsWith(base)) return null;
  return `${demo.origin}${url.pathname}${url.search}`;
}

/**
 * The redirect target for a CTA, or null. A `redirect` is followed only when it is https, on a
 * host the site itself links to, and for that CTA: WhatsApp to our number (with a text that
 * quotes no reference), the demo to DEMO_URL.
 */
export function safeRedirect(raw: string | null, cta: CtaType, targets: Targets): string | null {
  if (raw === null) return null;
  const url = parseHttps(raw);
  if (!url) return null;
  if (cta === "whatsapp") return whatsappTarget(url, targets);
  if (cta === "demo") return demoTarget(url, targets);
  if (cta === "link") return whatsappTarget(url, targets) ?? demoTarget(url, targets);
  return null;
}

/** Where each CTA leads when no usable `redirect` came with it: the configured contact route. */
export function defaultTarget(cta: CtaType, targets: Targets): string | null {
  return cta === "link" ? null : contactHref(cta, targets, targets);
}

function decodedOrNull(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * Whether a decoded path reaches a thank-you page in any language. Remix matches routes without
 * regard to letter case, so "/AR/Thank-You/" is the Arabic thank-you page too.
 */
export function isThankYouPath(path: string): boolean {
  return /^(\/ar)?\/thank-you(\/|$)/i.test(path);
}

/**
 * A path on this site to go back to, or "/". Leading slash, no "//", no backslash, no control
 * characters before or after decoding, never back into /thank-you (that would count a lead twice).
 */
export function safeReturnUrl(raw: string | null): string {
  if (!raw || raw.length > MAX_RETURN_LENGTH) return "/";
  const decoded = decodedOrNull(raw);
  for (const value of [raw, decoded]) {
    if (value === null || !value.startsWith("/") || value.startsWith("//")) return "/";
    if (hasUnsafeChar(value)) return "/";
  }
  const origin = "http://return.invalid";
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return "/";
  }
  // Dot segments are resolved while parsing: "/.//evil.example" comes out as "//evil.example",
  // which a browser reads as another host. Check what we would actually send.
  if (url.origin !== origin) return "/";
  const path = decodedOrNull(url.pathname);
  if (path === null || path.startsWith("//") || hasUnsafeChar(path)) return "/";
  if (isThankYouPath(path)) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A placement as the site's buttons name theirs: lower-case letters, digits and "-". */
const PLACEMENT = /^[a-z0-9-]{1,40}$/;

export function placementOf(raw: string | null): string | undefined {
  return raw !== null && PLACEMENT.test(raw) ? raw : undefined;
}

/**
 * The longest variant a link may carry: "DRB-", two ids of 40 and a hyphen
 * (leads/variant-token.ts).
 */
const MAX_VARIANT_LENGTH = 85;

export function readThankYou(
  search: URLSearchParams,
  targets: Targets,
  now: number = Date.now(),
): ThankYou {
  const rawCta = search.get("cta");
  const cta = isCtaType(rawCta) ? rawCta : null;
  const campaign = campaignFrom(search);
  const sid = search.get(SESSION_PARAM);
  const seenAt = campaign.fbclid ? fbclidSeenAt(search.get(FBCLID_AT_PARAM), now) : undefined;
  const variant = search.get(VARIANT_PARAM);
  const placement = placementOf(search.get(PLACEMENT_PARAM));
  const session = {
    ...(sid !== null && SESSION_ID.test(sid) ? { sessionId: sid } : {}),
    ...(seenAt !== undefined ? { fbclidAt: seenAt } : {}),
    // Carried as far as the check, no longer: anything longer names no variant ("" says so).
    ...(variant !== null ? { variant: variant.length <= MAX_VARIANT_LENGTH ? variant : "" } : {}),
    ...(placement ? { placement } : {}),
  };
  const returnUrl = safeReturnUrl(search.get("returnUrl"));
  const plan = parsePlan(search.get("plan"));
  if (!cta) return { cta: null, campaign, ...session, target: null, returnUrl };
  const target =
    cta === "email"
      ? defaultTarget("email", targets)
      : (planTarget(plan, cta, targets) ??
        safeRedirect(search.get("redirect"), cta, targets) ??
        defaultTarget(cta, targets));
  return { cta, campaign, ...session, plan, target, returnUrl };
}

/**
 * A plan's WhatsApp chat: our number and the plan's own message, both from the server, whatever
 * text the redirect carried (a plan's lead link must open the message that names that plan).
 */
export function planTarget(
  plan: PlanId | undefined,
  cta: CtaType,
  targets: Targets,
): string | null {
  const message = plan && cta === "whatsapp" ? targets.planMessages?.[plan] : undefined;
  return message ? whatsappLink(targets.whatsappNumber, message) : null;
}
