/**
 * Clicks on links, read from the document rather than from each link's handler: links in
 * static parts (lib/static-parts.ts) have no React handlers, so one listener serves every
 * link on the page. A link says what it reports in data attributes set when it renders.
 */
import { type ClientEventName, type EventParams, isClientEventName } from "~/lib/analytics-events";
import { basePath } from "~/lib/locale";

const EVENT = "data-event";
const PARAMS = "data-event-params";
/** Marks a link to one of the site's pages, which the router loads without a full reload. */
export const PAGE_LINK = "data-page-link";
/** Marks a control whose click settles the page's language: no suggestion after it. */
export const REMEMBERS_LANGUAGE = "data-remembers-language";
/** Marks a button that hides the nearest element marked DISMISSIBLE. */
export const DISMISS = "data-dismiss";
export const DISMISSIBLE = "data-dismissible";

export type LinkEvent = { name: ClientEventName; params: Record<string, string> };

/** The attributes that make a link report `event` when clicked. */
export function eventAttributes(event: LinkEvent | null): Record<string, string> {
  if (!event) return {};
  return { [EVENT]: event.name, [PARAMS]: JSON.stringify(event.params) };
}

type AttributeSource = { getAttribute(name: string): string | null };

/** The event a clicked link reports, or null; attributes that fail to parse report nothing. */
export function linkEvent(link: AttributeSource): LinkEvent | null {
  const name = link.getAttribute(EVENT);
  if (!isClientEventName(name)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(link.getAttribute(PARAMS) ?? "{}");
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed as EventParams)) {
    if (typeof value === "string") params[key] = value;
  }
  return { name, params };
}

/** Clicks that leave the page are sent at once, not batched: the page may be gone in a moment. */
export function leavesPage(event: LinkEvent): boolean {
  return event.name !== "navigation_click";
}

/**
 * A lead link carries the visit's source. The server renders it from the URL alone; a visitor
 * who arrived from Instagram and came back to a bare URL in the same tab still counts as
 * Instagram, so the link is corrected at the click, before the browser follows it.
 */
export function withVisitSource(href: string, source: string, origin: string): string {
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    return href;
  }
  if (url.origin !== origin || basePath(url.pathname) !== "/thank-you") return href;
  if (url.searchParams.get("source") === source) return href;
  url.searchParams.set("source", source);
  return `${url.pathname}${url.search}${url.hash}`;
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
  if (url.origin !== origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
