/**
 * Which wording a page's preview uses (docs/product.md: a wording per platform). The crawler that
 * fetches the page is the audience that will see the preview, so it decides first; then an
 * explicit `?platform=`; then the campaign `source` the link was shared with.
 */
export const PLATFORMS = ["default", "facebook", "twitter", "whatsapp"] as const;
export type Platform = (typeof PLATFORMS)[number];

/** A wording for every platform; only `default` is required, the rest fall back to it. */
export type PlatformWording = { default: string } & Partial<Record<Platform, string>>;

const CRAWLERS: readonly [RegExp, Platform][] = [
  [/facebookexternalhit|facebot|facebookcatalog/i, "facebook"],
  [/twitterbot/i, "twitter"],
  [/whatsapp/i, "whatsapp"],
];

// A Map, not an object: "constructor" or "__proto__" must not find anything.
const ALIASES = new Map<string, Platform>([
  ["default", "default"],
  ["facebook", "facebook"],
  ["fb", "facebook"],
  ["twitter", "twitter"],
  ["x", "twitter"],
  ["whatsapp", "whatsapp"],
  ["wa", "whatsapp"],
]);

function named(value: string | null): Platform | null {
  if (!value) return null;
  return ALIASES.get(value.trim().toLowerCase()) ?? null;
}

export function platformOfCrawler(userAgent: string | null): Platform | null {
  if (!userAgent) return null;
  // A user agent is attacker-chosen; only its start matters and it is never echoed.
  const head = userAgent.slice(0, 512);
  for (const [pattern, platform] of CRAWLERS) if (pattern.test(head)) return platform;
  return null;
}

export function choosePlatform(searchParams: URLSearchParams, userAgent: string | null): Platform {
  return (
    platformOfCrawler(userAgent) ??
    named(searchParams.get("platform")) ??
    named(searchParams.get("source")) ??
    "default"
  );
}

export function wordingFor(wording: string | PlatformWording, platform: Platform): string {
  if (typeof wording === "string") return wording;
  return wording[platform] ?? wording.default;
}
