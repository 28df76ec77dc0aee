import { type Campaign, setCampaign } from "~/shared/campaign";
import { mailtoLink, whatsappLink } from "~/shared/contact-links";
import { fitUrl } from "~/shared/events";
import { type Locale, localePath } from "~/shared/locale";
import type { PlanId } from "~/shared/plan-id";

export const CTA_TYPES = ["email", "whatsapp", "demo", "link"] as const;
export type CtaType = (typeof CTA_TYPES)[number];

export function isCtaType(value: unknown): value is CtaType {
  return typeof value === "string" && (CTA_TYPES as readonly string[]).includes(value);
}

/** The product's call-to-action shape (docs/product.md), less the icon, which is the component's business. */
export type CtaSpec = {
  text: string;
  href: string;
  external?: boolean;
  arrow?: boolean;
  ctaType: CtaType;
  /** Default true: leads pass through /thank-you, where they are counted on the server. */
  useThankYouPage?: boolean;
  /** The plan a plan's button asks about: the lead and its WhatsApp message name it. */
  plan?: PlanId;
};

export type LinkKind = "email" | "external" | "anchor" | "internal";

/** docs/product.md, Behaviour: e-mail links, external or http links, and everything else, which is a plain link. */
export function linkKind(href: string, external = false): LinkKind {
  if (/^mailto:/i.test(href)) return "email";
  if (external || /^https?:/i.test(href) || href.startsWith("//")) return "external";
  if (href.startsWith("#")) return "anchor";
  return "internal";
}

/** The lead link's parameter for the visit's GA4 session id (analytics/session.ts). */
export const SESSION_PARAM = "sid";

/**
 * The lead link's parameter for the running experiment's variant its page showed
 * (its exp_variant_string, `DRB-<experiment>-<variant>`: leads/variant-token.ts): the lead counts
 * for that variant only.
 */
export const VARIANT_PARAM = "exp";

/** The lead link's parameter for where on its page the button sits ("hero", "sticky", "plan-pro"). */
export const PLACEMENT_PARAM = "pl";

/**
 * The lead link's parameter for when the visit's `fbclid` was first seen (ms since the epoch):
 * the landing request's time, which Meta's `fbc` is created with (docs/analytics.md).
 */
export const FBCLID_AT_PARAM = "fbclid_at";

/** How far back an fbclid's first sight may be: Meta keeps its own _fbc cookie for 90 days. */
export const FBCLID_MAX_AGE_MS = 90 * 24 * 3600_000;

/**
 * A carried first sight of the fbclid, if it is one to trust at `now`: whole milliseconds, not
 * in the future and not older than FBCLID_MAX_AGE_MS; anything else is no time at all.
 */
export function fbclidSeenAt(raw: string | null | undefined, now: number): number | undefined {
  if (!raw || !/^[0-9]{13}$/.test(raw)) return undefined;
  const at = Number(raw);
  return at <= now && now - at <= FBCLID_MAX_AGE_MS ? at : undefined;
}

/**
 * A lead link: /thank-you with the CTA, the visit's whole campaign (so the lead is attributed
 * with JavaScript off too), the plan, where to go next and the way back.
 */
export function thankYouHref(params: {
  cta: CtaType;
  campaign: Campaign;
  plan?: PlanId;
  redirect?: string;
  returnUrl?: string;
  /** The page's language: the thank-you page speaks it too. */
  locale?: Locale;
  /** When the campaign's fbclid was first seen (ms), carried for Meta's fbc. */
  fbclidAt?: number;
  /** The running experiment's variant the page shows (VARIANT_PARAM). */
  variant?: string;
  /** Where the button sits on its page (PLACEMENT_PARAM). */
  placement?: string;
}): string {
  const search = new URLSearchParams({ cta: params.cta });
  setCampaign(search, params.campaign);
  if (params.fbclidAt !== undefined && params.campaign.fbclid)
    search.set(FBCLID_AT_PARAM, String(params.fbclidAt));
  if (params.plan) search.set("plan", params.plan);
  if (params.redirect) search.set("redirect", params.redirect);
  if (params.returnUrl && params.returnUrl !== "/") search.set("returnUrl", params.returnUrl);
  if (params.variant) search.set(VARIANT_PARAM, params.variant);
  if (params.placement) search.set(PLACEMENT_PARAM, params.placement);
  return `${localePath(params.locale ?? "en", "/thank-you")}?${search}`;
}

export type EventName = "email_click" | "external_link_click" | "navigation_click" | "cta_click";

export type ResolvedCta = {
  kind: LinkKind;
  /** The final address: works as it is with JavaScript off. */
  href: string;
  /** Only for external links that skip the thank-you page. */
  newTab: boolean;
  /** A lead link through /thank-you, whose address carries its placement (PLACEMENT_PARAM). */
  viaThankYou: boolean;
  event: { name: EventName; params: Record<string, string> } | null;
};

const MAX_PARAM = 100;
const clip = (value: string) => value.slice(0, MAX_PARAM);

export function resolveCta(
  cta: CtaSpec,
  context: {
    campaign: Campaign;
    returnUrl: string;
    placement: string;
    locale?: Locale;
    fbclidAt?: number;
    /** The running experiment's variant the page shows, if any. */
    variant?: string;
  },
): ResolvedCta {
  const kind = linkKind(cta.href, cta.external);
  const thankYou = cta.useThankYouPage ?? true;
  const params = { cta_type: cta.ctaType, cta_text: clip(cta.text), placement: context.placement };
  const lead = {
    campaign: context.campaign,
    returnUrl: context.returnUrl,
    locale: context.locale,
    fbclidAt: context.fbclidAt,
    variant: context.variant,
    placement: context.placement,
  };
  switch (kind) {
    case "email":
      return {
        kind,
        href: thankYou ? thankYouHref({ ...lead, cta: "email" }) : cta.href,
        newTab: false,
        viaThankYou: thankYou,
        event: { name: "email_click", params },
      };
    case "external":
      return {
        kind,
        href: thankYou
          ? thankYouHref({
              ...lead,
              cta: cta.ctaType === "email" ? "link" : cta.ctaType,
              plan: cta.plan,
              redirect: cta.href,
            })
          : cta.href,
        newTab: !thankYou,
        viaThankYou: thankYou,
        event: { name: "external_link_click", params: { ...params, link_url: fitUrl(cta.href) } },
      };
    case "anchor":
      return {
        kind,
        href: cta.href,
        newTab: false,
        viaThankYou: false,
        event: { name: "navigation_click", params },
      };
    default:
      return { kind, href: cta.href, newTab: false, viaThankYou: false, event: null };
  }
}

/** Where each kind of contact CTA points, from the site's settings. */
export function contactHref(
  type: CtaType,
  site: { whatsappNumber: string; email: string; demoUrl: string },
  copy: { whatsappMessage: string; emailSubject: string },
): string {
  switch (type) {
    case "whatsapp":
      return whatsappLink(site.whatsappNumber, copy.whatsappMessage);
    case "email":
      return mailtoLink(site.email, copy.emailSubject);
    case "demo":
      return site.demoUrl;
    default:
      return "/";
  }
}
