/**
 * The campaign a URL carries, as a query to pass on to the same page in the other language, so
 * a visitor who switches without JavaScript still counts for the campaign that brought them.
 * Only the parameters marketers and ad networks tag links with, never anything else in the URL.
 */
import { normaliseToken } from "~/shared/attribution";

/** What shared/attribution.ts reads: passed on as it reads them (a lower-cased token), or not at all. */
const ATTRIBUTION = ["source", "utm_source", "utm_medium", "utm_campaign"] as const;
/** Free text and ids the site itself does not read: passed on as they came. */
const FREE_TEXT = ["utm_term", "utm_content", "utm_id"] as const;
/** Ad networks' click ids: a new one for every click on an ad. */
export const CLICK_IDS = ["gclid", "gbraid", "wbraid", "fbclid", "ttclid"] as const;

/** Longer than any real tag or click id: such a value is not passed on. */
const MAX_VALUE = 200;

export type Campaign = {
  /** "?source=…&utm_medium=…", in a fixed order, encoded; "" when the URL carries none. */
  query: string;
  /** Whether it holds a click id: then no other visitor's URL ever asks for the same page. */
  perClick: boolean;
};

export function campaignOf(search: URLSearchParams): Campaign {
  const kept = new URLSearchParams();
  for (const name of ATTRIBUTION) {
    const value = normaliseToken(search.get(name));
    if (value) kept.set(name, value);
  }
  for (const name of [...FREE_TEXT, ...CLICK_IDS]) {
    const value = search.get(name)?.trim();
    if (value && value.length <= MAX_VALUE) kept.set(name, value);
  }
  const query = kept.toString();
  return {
    query: query ? `?${query}` : "",
    perClick: CLICK_IDS.some((name) => kept.has(name)),
  };
}
