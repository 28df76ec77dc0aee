/**
 * Clicks on links, read from the document rather than from each link's handler: links in
 * static parts (components/static-parts.ts) have no React handlers, so one listener serves every
 * link on the page. A link says what it reports in data attributes set when it renders.
 */

import { CAMPAIGN_PARAMS, type Campaign, setCampaign } from "~/shared/campaign";
import { FBCLID_AT_PARAM, PLACEMENT_PARAM, SESSION_PARAM, VARIANT_PARAM } from "~/shared/cta";
import { type ClientEventName, fitUrl, isClientEventName } from "~/shared/events";
import { basePath, isLocale, localeOfPath, pathInLocale } from "~/shared/locale";

const EVENT = "data-event";
const PLACEMENT = "data-placement";
/** Marks a link to one of the site's pages, which the router loads without a full reload. */
export const PAGE_LINK = "data-page-link";
/** Marks a control whose click settles the page's language: no suggestion after it. */
export const REMEMBERS_LANGUAGE = "data-remembers-language";
/** Marks a button that hides the nearest element marked DISMISSIBLE. */
export const DISMISS = "data-dismiss";
export const DISMISSIBLE = "data-dismissible";

export type LinkEvent = { name: ClientEventName; params: Record<string, string> };

/**
 * The attributes that make a link report `name` when clicked, from `placement` ("hero"…).
 * Only these two: the rest of the event is read off the link at the click (linkEvent), so a
 * page of links does not carry every event's params in its markup.
 */
export function eventAttributes(name: ClientEventName, placement = ""): Record<string, string> {
  return placement ? { [EVENT]: name, [PLACEMENT]: placement } : { [EVENT]: name };
}

type AttributeSource = { getAttribute(name: string): string | null };

type ClickedLink = {
  href: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
};

const clip = (value: string) => value.slice(0, 100);

/**
 * The event a clicked link reports, or null, built the way shared/cta.ts's resolveCta builds it:
 * the CTA's kind from the thank-you link's `cta` (or mailto:), its words from its name, where
 * it leads from `redirect`; a section link reports the section and the page it was on. A lead
 * link's address says it all, its event and where it sits (`pl`), so its markup need not: an
 * e-mail's is email_click, any other external_link_click; other links say theirs in attributes.
 */
export function linkEvent(link: ClickedLink, pathname: string): LinkEvent | null {
  let url: URL;
  try {
    url = new URL(link.href);
  } catch {
    return null;
  }
  const cta = url.searchParams.get("cta");
  const placement = url.searchParams.get(PLACEMENT_PARAM);
  const name =
    link.getAttribute(EVENT) ??
    (placement === null ? null : cta === "email" ? "email_click" : "external_link_click");
  if (!isClientEventName(name)) return null;
  if (name === "navigation_click") {
    return { name, params: { target_section: url.hash.slice(1), from_path: pathname } };
  }
  const params: Record<string, string> = {
    cta_type: url.protocol === "mailto:" ? "email" : (cta ?? "link"),
    cta_text: clip((link.getAttribute("aria-label") ?? link.textContent ?? "").trim()),
    placement: placement ?? link.getAttribute(PLACEMENT) ?? "",
  };
  if (name === "external_link_click") {
    // Read and cut at a character, never mid-escape ("…for%2"): what a marketer can read.
    params.link_url = fitUrl(url.searchParams.get("redirect") ?? link.href);
  }
  return { name, params };
}

/** Clicks that leave the page are sent at once, not batched: the page may be gone in a moment. */
export function leavesPage(event: LinkEvent): boolean {
  return event.name !== "navigation_click";
}

/**
 * A lead link carries the visit's campaign, GA4 session and the experiment's variant it was
 * shown. The server renders it from the URL and the page alone; a visitor who arrived from
 * Instagram and came back to a bare URL in the same tab still counts for Instagram, the lead
 * joins the session the landing page began, and one who saw a variant on / and taps on /share
 * still counts for it, so the link is corrected at the click, before the browser follows it.
 */
export function leadHrefForVisit(
  href: string,
  visit: {
    campaign: Campaign;
    session: string;
    pathname: string;
    fbclidAt?: number;
    variant?: string;
  },
  origin: string,
): string {
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    return href;
  }
  if (url.origin !== origin || basePath(url.pathname) !== "/thank-you") return href;
  const search = new URLSearchParams();
  const cta = url.searchParams.get("cta");
  if (cta !== null) search.set("cta", cta);
  setCampaign(search, visit.campaign);
  if (visit.session) search.set(SESSION_PARAM, visit.session);
  // When the visit's fbclid was first seen: the visit's, for the visit's click id.
  if (visit.campaign.fbclid && visit.fbclidAt !== undefined)
    search.set(FBCLID_AT_PARAM, String(visit.fbclidAt));
  // The rest as it was (plan, redirect, the variant, the placement); the way back is the page
  // the click came from (a kept part may have been rendered for another).
  for (const [name, value] of url.searchParams) {
    if (name === "cta" || name === "returnUrl" || name === SESSION_PARAM) continue;
    if (name === FBCLID_AT_PARAM) continue;
    if (!(CAMPAIGN_PARAMS as readonly string[]).includes(name)) search.append(name, value);
  }
  // The variant this visit was shown, wherever it taps (hooks/use-visit.ts), over the page's.
  if (visit.variant) search.set(VARIANT_PARAM, visit.variant);
  if (visit.pathname !== "/") search.set("returnUrl", visit.pathname);
  const corrected = `${url.pathname}?${search}${url.hash}`;
  return corrected === href ? href : corrected;
}

/**
 * Where a language link leads at the click: the page now shown, with its query and hash, in the
 * link's language. The markup holds only the twin path and the campaign of the URL it was
 * rendered for (hooks/use-language-href.ts), and a kept part was rendered for the page it first
 * came with.
 */
export function languageHref(
  link: AttributeSource,
  location: { pathname: string; search: string; hash: string },
): string | null {
  const locale = link.getAttribute("hreflang");
  if (!isLocale(locale)) return null;
  return `${pathInLocale(location.pathname, locale)}${location.search}${location.hash}`;
}

export type ClickLike = {
  button: number;
  metaKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
};

/**
 * Where the router should take a click on a static page link, or null to let the browser
 * handle it: modified clicks (new tab, download), other windows and other sites stay native.
 */
export function routedPath(
  click: ClickLike,
  link: AttributeSource & { href: string },
  origin: string,
  current: string,
): string | null {
  if (click.defaultPrevented || click.button !== 0) return null;
  if (click.metaKey || click.altKey || click.ctrlKey || click.shiftKey) return null;
  if (link.getAttribute(PAGE_LINK) === null) return null;
  const target = link.getAttribute("target");
  if ((target && target !== "_self") || link.getAttribute("download") !== null) return null;
  let url: URL;
  try {
    url = new URL(link.href, origin);
  } catch {
    return null;
  }
  // Another language is a whole new document: its lang, dir and every word change.
  if (url.origin !== origin || localeOfPath(url.pathname) !== localeOfPath(current)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
