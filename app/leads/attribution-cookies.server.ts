/**
 * What the site keeps in a visitor's browser so that a lead made days after the ad's click is
 * still the ad's (docs/decisions/027-attribution-cookies.md): the campaign and click ids of the
 * last tagged visit, each for its network's attribution window, and Meta's browser id (`_fbp`)
 * while Meta is a destination. First-party, HttpOnly, SameSite=Lax, Secure behind TLS; never an
 * address or anything else of the visitor, and nothing at all for a bot or `Sec-GPC: 1`.
 */
import { randomInt } from "node:crypto";
import { type HeaderReader, isPrefetched, mayTrack } from "~/leads/visitor.server";
import type { Config } from "~/platform/config.server";
import type { Attribution, KeptCampaign } from "~/shared/attribution";
import {
  CAMPAIGN_PARAMS,
  type Campaign,
  CLICK_IDS,
  campaignFrom,
  isTagged,
} from "~/shared/campaign";

/** The last tagged visit's campaign and click ids, with when it came (`at`, ms). */
export const CAMPAIGN_COOKIE = "darb_campaign";
/** Meta's own name for its browser id, so a Meta pixel added later would share it. */
export const FBP_COOKIE = "_fbp";

const DAY_MS = 86_400_000;
/** A campaign's words are kept as long as Google credits a click: 90 days. */
export const CAMPAIGN_DAYS = 90;
/**
 * Each click id for its network's default click-through window, at most the campaign's: Google
 * credits a click for up to 90 days, Meta and TikTok 7 days by default, Snap 28.
 */
export const CLICK_ID_DAYS: Record<(typeof CLICK_IDS)[number], number> = {
  gclid: 90,
  gbraid: 90,
  wbraid: 90,
  fbclid: 7,
  ttclid: 7,
  ScCid: 28,
};
/** Meta's _fbp lasts 90 days. */
export const FBP_DAYS = 90;

/** Browsers keep a cookie up to 4,096 bytes; the campaign leaves room for the rest. */
const MAX_CAMPAIGN_COOKIE = 3000;
/** The words dropped first when a campaign is too long to keep whole (Arabic, encoded, is 6×). */
const DROPPED_FIRST = ["utm_id", "utm_content", "utm_term", "utm_campaign", "utm_medium"] as const;

/** The named cookies of a Cookie header, the first of each name, undecoded. */
export function cookiesOf(header: string | null | undefined, names: readonly string[]) {
  const found = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const equals = part.indexOf("=");
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim();
    if (names.includes(name) && !found.has(name)) found.set(name, part.slice(equals + 1).trim());
  }
  return found;
}

/**
 * The campaign a cookie keeps, as of `now`: each click id only within its window, the words
 * only within 90 days; null when nothing is left, or the value is not one this site wrote.
 */
export function keptCampaignOf(value: string | undefined, now: number): KeptCampaign | null {
  if (!value || value.length > MAX_CAMPAIGN_COOKIE) return null;
  let search: URLSearchParams;
  try {
    search = new URLSearchParams(value);
  } catch {
    return null;
  }
  const rawAt = search.get("at") ?? "";
  if (!/^[0-9]{13}$/.test(rawAt)) return null;
  const at = Number(rawAt);
  const age = now - at;
  // A time to come is a cookie written by hand, or by a clock that was wrong.
  if (age < 0 || age > CAMPAIGN_DAYS * DAY_MS) return null;
  // Cleaned as any URL's campaign is: a cookie is the visitor's to change.
  const campaign = campaignFrom(search);
  for (const name of CLICK_IDS) {
    if (campaign[name] !== undefined && age > CLICK_ID_DAYS[name] * DAY_MS) delete campaign[name];
  }
  return isTagged(campaign) ? { campaign, at } : null;
}

/** The cookie's value for a campaign seen at `at`, shortened to fit; null if it cannot fit. */
export function campaignCookieValue(campaign: Campaign, at: number): string | null {
  const kept: Campaign = { ...campaign };
  const encode = () => {
    const search = new URLSearchParams();
    for (const name of CAMPAIGN_PARAMS) {
      const word = kept[name];
      if (word !== undefined) search.set(name, word);
    }
    search.set("at", String(at));
    return search.toString();
  };
  let value = encode();
  for (const name of DROPPED_FIRST) {
    if (value.length <= MAX_CAMPAIGN_COOKIE) break;
    delete kept[name];
    value = encode();
  }
  return value.length <= MAX_CAMPAIGN_COOKIE && isTagged(kept) ? value : null;
}

/** Meta's documented shape: `fb.<domain index>.<creation ms>.<random number>`. */
export function isFbp(value: string | undefined): value is string {
  return value !== undefined && /^fb\.[0-9]\.[0-9]{13}\.[0-9]{1,20}$/.test(value);
}

/** A new browser id, made as Meta's pixel makes one: domain index 1, now, ten random digits. */
export function newFbp(now: number): string {
  return `fb.1.${now}.${randomInt(1_000_000_000, 10_000_000_000)}`;
}

/**
 * The `fbc` parameter as Meta documents it for a server that keeps no _fbc cookie:
 * `fb.1.<ms when the click id was first seen>.<fbclid>`, the 1 being the domain index Meta asks
 * servers to use. The click id is first seen on the landing request, whose time the lead link
 * carries (`fbclid_at`); a lead link without it gives the lead's own time, the closest honest one.
 */
export function fbcOf(fbclid: string, seenAt: number): string {
  return `fb.1.${seenAt}.${fbclid}`;
}

function setCookie(name: string, value: string, maxAgeDays: number, secure: boolean): string {
  const flags = `Max-Age=${maxAgeDays * 86_400}; Path=/; HttpOnly; SameSite=Lax`;
  return `${name}=${value}; ${flags}${secure ? "; Secure" : ""}`;
}

function clearCookie(name: string, secure: boolean): string {
  return `${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

const sameCampaign = (a: Campaign, b: Campaign) =>
  CAMPAIGN_PARAMS.every((name) => a[name] === b[name]);

/**
 * What a visitor's page request keeps: a tagged visit replaces the kept campaign (the last
 * click that was not direct wins, as GA4 attributes), an untagged one reads it; Meta's id is
 * made once and kept. A visitor who may not be tracked (`tracked` false: `Sec-GPC: 1`) keeps
 * nothing, and what an earlier visit left is cleared.
 */
export function attributionOf(
  request: { search: URLSearchParams; cookie: string | null | undefined },
  options: { now: number; tracked: boolean; meta: boolean; secure: boolean },
): Attribution {
  const { now, secure } = options;
  const cookies = cookiesOf(request.cookie, [CAMPAIGN_COOKIE, FBP_COOKIE]);
  if (!options.tracked) {
    return {
      kept: null,
      fbp: null,
      setCookies: [...cookies.keys()].map((name) => clearCookie(name, secure)),
    };
  }
  const setCookies: string[] = [];
  let kept = keptCampaignOf(cookies.get(CAMPAIGN_COOKIE), now);
  const visit = campaignFrom(request.search);
  // The same tagged address again (a reload, Back) keeps the first sight of its click.
  if (isTagged(visit) && !(kept && sameCampaign(kept.campaign, visit))) {
    const value = campaignCookieValue(visit, now);
    if (value) {
      setCookies.push(setCookie(CAMPAIGN_COOKIE, value, CAMPAIGN_DAYS, secure));
      kept = keptCampaignOf(value, now);
    } else if (cookies.has(CAMPAIGN_COOKIE)) {
      // Too long to keep: an older campaign must not be credited with what this one brought.
      setCookies.push(clearCookie(CAMPAIGN_COOKIE, secure));
      kept = null;
    }
  }
  let fbp: string | null = null;
  if (options.meta) {
    const known = cookies.get(FBP_COOKIE);
    fbp = isFbp(known) ? known : newFbp(now);
    if (fbp !== known) setCookies.push(setCookie(FBP_COOKIE, fbp, FBP_DAYS, secure));
  }
  return { kept, fbp, setCookies };
}

/**
 * The campaign a lead is credited with: its link's, when the link carries one (this visit's,
 * the last click); else the one kept from an earlier tagged visit. An fbclid seen first on an
 * earlier visit keeps that time, which Meta's fbc is made with.
 */
export function leadCampaign(
  link: { campaign: Campaign; fbclidAt?: number },
  kept: KeptCampaign | null,
): { campaign: Campaign; fbclidAt?: number } {
  if (!isTagged(link.campaign)) {
    if (!kept) return link;
    return { campaign: kept.campaign, ...(kept.campaign.fbclid ? { fbclidAt: kept.at } : {}) };
  }
  const { fbclid } = link.campaign;
  if (!kept || !fbclid || kept.campaign.fbclid !== fbclid) return link;
  return { campaign: link.campaign, fbclidAt: Math.min(kept.at, link.fbclidAt ?? kept.at) };
}

/**
 * What the app's own server keeps for a request (server/attribution.ts), or null when it is no
 * visitor's page: only a GET of a page (not a file, a build asset, an API or Remix's data), as
 * the browser's own navigation (Sec-Fetch-Dest "document", or none said), never a prefetch.
 * Before the document cache, so a page served from memory keeps the campaign as a rendered one.
 */
export function attributionOfRequest(
  config: Pick<Config, "destinations" | "siteUrl">,
  request: { method: string; url: URL; headers: HeaderReader },
  now = Date.now(),
): Attribution | null {
  const { url, headers } = request;
  if (request.method !== "GET" || url.searchParams.has("_data")) return null;
  const path = url.pathname;
  if (path.startsWith("/build/") || path.startsWith("/api/")) return null;
  if (path.slice(path.lastIndexOf("/")).includes(".")) return null;
  const dest = headers.get("sec-fetch-dest");
  if ((dest !== null && dest !== "document") || isPrefetched({ headers })) return null;
  return attributionOf(
    { search: url.searchParams, cookie: headers.get("cookie") },
    {
      now,
      tracked: mayTrack(headers),
      meta: config.destinations.some((destination) => destination.name === "meta"),
      secure: new URL(config.siteUrl).protocol === "https:",
    },
  );
}
