/**
 * Where a visit came from, as marketers and ad networks tag its link: our own `source`, the
 * utm_* parameters and the networks' click ids. Values are the marketer's free text ("Ramadan
 * Promo 2026", Meta's `{{ad.name}}`, Arabic): kept as written, only trimmed, cleaned of control
 * characters and cut to GA4's limit. They are only ever written through URLSearchParams, JSON
 * or React, so no value can change a link's target or the page (docs/analytics.md).
 */

import { cut, LIMITS } from "~/shared/events";

/** The campaign's words, in the order every link carries them. */
export const TAGS = [
  "source",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "utm_id",
] as const;
/** Ad networks' click ids: a new one for every click on an ad (Snapchat's is spelt ScCid). */
export const CLICK_IDS = ["gclid", "gbraid", "wbraid", "fbclid", "ttclid", "ScCid"] as const;
export const CAMPAIGN_PARAMS = [...TAGS, ...CLICK_IDS] as const;
export type CampaignParam = (typeof CAMPAIGN_PARAMS)[number];

/** What the visit was tagged with, cleaned; an untagged visit is `{}`. */
export type Campaign = Partial<Record<CampaignParam, string>>;

/** GA4's limit for an event parameter's value (UTF-16 units): a longer word is cut to it. */
export const MAX_TAG_LENGTH = LIMITS.paramValueLength;
/**
 * A click id is an id: cut, it matches nothing, so a longer one is dropped. Real ones are under
 * 200 characters (fbclid, gclid); Meta wants fbclid whole, so 100 would be too few.
 */
export const MAX_CLICK_ID_LENGTH = 500;

export const DIRECT = "direct";

/**
 * Control characters (C0, DEL, C1) read as white space; invisible format characters (zero-width,
 * bidi marks and overrides, which could make one word two or reorder a report's text) are
 * removed. Compared by code point, as shared/redirect rules do.
 */
function withoutControls(raw: string): string {
  let out = "";
  for (const char of raw) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) out += " ";
    else if (
      code === 0x061c ||
      (code >= 0x200b && code <= 0x200f) ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2060 && code <= 0x206f) ||
      code === 0xfeff
    )
      continue;
    else out += char;
  }
  return out;
}

/** Trimmed, one space for each run of white space, no control characters; undefined if empty. */
export function cleanTag(raw: unknown, max: number = MAX_TAG_LENGTH): string | undefined {
  if (typeof raw !== "string") return undefined;
  const clean = withoutControls(raw).replace(/\s+/gu, " ").trim();
  if (!clean) return undefined;
  return clean.length > max ? cut(clean, max).trimEnd() : clean;
}

function cleanClickId(raw: unknown): string | undefined {
  const clean = cleanTag(raw, Number.POSITIVE_INFINITY);
  return clean && clean.length <= MAX_CLICK_ID_LENGTH && !/\s/u.test(clean) ? clean : undefined;
}

function clean(name: CampaignParam, raw: unknown): string | undefined {
  return (CLICK_IDS as readonly string[]).includes(name) ? cleanClickId(raw) : cleanTag(raw);
}

/** The campaign a URL's query carries: the first value of each parameter, cleaned. */
export function campaignFrom(search: URLSearchParams): Campaign {
  const campaign: Campaign = {};
  for (const name of CAMPAIGN_PARAMS) {
    const value = clean(name, search.get(name));
    if (value !== undefined) campaign[name] = value;
  }
  return campaign;
}

/** Whether the visit arrived tagged: any campaign word or click id (`source=direct` is none). */
export function isTagged(campaign: Campaign): boolean {
  return CAMPAIGN_PARAMS.some(
    (name) => campaign[name] !== undefined && !(name === "source" && isDirect(campaign[name])),
  );
}

const isDirect = (value: string | undefined) => value?.toLowerCase() === DIRECT;

/** Whether a click id came with it: then no other visitor's URL ever asks for the same page. */
export function hasClickId(campaign: Campaign): boolean {
  return CLICK_IDS.some((name) => campaign[name] !== undefined);
}

/** The lead's source, as the product names it: `source`, else `utm_source`, else "direct". */
export function leadSource(campaign: Campaign): string {
  const source = campaign.source ?? campaign.utm_source;
  return source === undefined || isDirect(source) ? DIRECT : source;
}

/** The campaign as query parameters, in one order, encoded; nothing when untagged. */
export function setCampaign(search: URLSearchParams, campaign: Campaign): void {
  for (const name of CAMPAIGN_PARAMS) search.delete(name);
  if (!isTagged(campaign)) return;
  for (const name of CAMPAIGN_PARAMS) {
    const value = campaign[name];
    if (value !== undefined) search.set(name, value);
  }
}

/** "?source=…&utm_medium=…" to carry the campaign on to another page; "" when untagged. */
export function campaignQuery(campaign: Campaign): string {
  const search = new URLSearchParams();
  setCampaign(search, campaign);
  const query = search.toString();
  return query ? `?${query}` : "";
}

/**
 * GA4's `campaign_details` parameters, which attribute the session's events to the campaign
 * (Measurement Protocol events get no campaign otherwise). Our `source` stands in for a missing
 * utm_source.
 */
export function campaignDetails(campaign: Campaign): Record<string, string> {
  const details: Record<string, string | undefined> = {
    source: campaign.utm_source ?? (isDirect(campaign.source) ? undefined : campaign.source),
    medium: campaign.utm_medium,
    campaign: campaign.utm_campaign,
    term: campaign.utm_term,
    content: campaign.utm_content,
    campaign_id: campaign.utm_id,
  };
  return Object.fromEntries(
    Object.entries(details).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
