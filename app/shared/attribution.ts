/**
 * Where a visit came from, as marketers tag it: `/?source=instagram`, or the utm_* parameters.
 * The values end up in links, events and GA4 reports, so only a narrow alphabet gets through.
 */
export type Attribution = {
  source: string;
  medium?: string;
  campaign?: string;
};

export const DIRECT: Attribution = { source: "direct" };

const TOKEN = /^[a-z0-9._-]{1,64}$/;

/** Lower case, `[a-z0-9._-]`, at most 64 characters; anything else is not a source at all. */
export function normaliseToken(raw: string | null | undefined): string | undefined {
  if (typeof raw !== "string") return undefined;
  const value = raw.trim().toLowerCase();
  return TOKEN.test(value) ? value : undefined;
}

export function attributionFrom(search: URLSearchParams): Attribution {
  const source = normaliseToken(search.get("source")) ?? normaliseToken(search.get("utm_source"));
  if (!source) return DIRECT;
  const attribution: Attribution = { source };
  const medium = normaliseToken(search.get("utm_medium"));
  const campaign = normaliseToken(search.get("utm_campaign"));
  if (medium) attribution.medium = medium;
  if (campaign) attribution.campaign = campaign;
  return attribution;
}

/**
 * The query that carries an attribution on to another page of the site ("?source=instagram&
 * utm_medium=cpc"), rebuilt from the normalised values, never the raw input; "" when direct.
 */
export function campaignSearch(attribution: Attribution): string {
  if (attribution.source === DIRECT.source) return "";
  const search = new URLSearchParams({ source: attribution.source });
  if (attribution.medium) search.set("utm_medium", attribution.medium);
  if (attribution.campaign) search.set("utm_campaign", attribution.campaign);
  return `?${search}`;
}

/** Reads back what was stored, trusting nothing about its shape. */
export function parseStoredAttribution(raw: string | null): Attribution | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== "object") return null;
    const record = value as Record<string, unknown>;
    const source = normaliseToken(record.source as string);
    if (!source) return null;
    const attribution: Attribution = { source };
    const medium = normaliseToken(record.medium as string);
    const campaign = normaliseToken(record.campaign as string);
    if (medium) attribution.medium = medium;
    if (campaign) attribution.campaign = campaign;
    return attribution;
  } catch {
    return null;
  }
}
