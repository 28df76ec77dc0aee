/**
 * The spec's query-cache constants (§9) applied to the server's pages: a rendered document is
 * served from memory while fresh (5 minutes) and dropped once unused for 5 minutes. Entries are
 * whole documents with gaps where each response puts its own nonce.
 */
import { attributionFrom } from "~/shared/attribution";
import { campaignOf } from "~/shared/campaign-query";
import { localeOfPath, otherLocale } from "~/shared/locale";

export const FRESH_MS = 5 * 60_000;
export const COLLECT_AFTER_MS = 5 * 60_000;

type Entry<T> = { page: T; renderedAt: number; lastUsedAt: number };

export type RenderCache<T> = {
  /** The document while it is fresh; undefined when missing or stale (render it again). */
  get: (key: string) => T | undefined;
  set: (key: string, page: T) => void;
  /** Drops what has not been used for COLLECT_AFTER_MS. */
  collect: () => void;
  size: () => number;
};

export function createRenderCache<T>({
  maxEntries = 200,
  now = Date.now,
}: {
  maxEntries?: number;
  now?: () => number;
} = {}): RenderCache<T> {
  // A Map keeps insertion order: re-inserting on use makes the first key the least recent.
  const entries = new Map<string, Entry<T>>();

  const collect = () => {
    const time = now();
    for (const [key, entry] of entries) {
      if (time - entry.lastUsedAt >= COLLECT_AFTER_MS) entries.delete(key);
    }
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      const time = now();
      entries.delete(key);
      if (time - entry.renderedAt >= FRESH_MS) return undefined;
      entry.lastUsedAt = time;
      entries.set(key, entry);
      return entry.page;
    },
    set(key, page) {
      const time = now();
      entries.delete(key);
      entries.set(key, { page, renderedAt: time, lastUsedAt: time });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
    collect,
    size: () => entries.size,
  };
}

const CACHEABLE_PATHS = new Set(["/", "/share", "/sitemap", "/ar", "/ar/share", "/ar/sitemap"]);

/**
 * The cache key for a document request, or null when it must be rendered for this request alone.
 * Built from what the page shows of the request, normalised exactly as the page normalises it:
 * the path (and so the language), the campaign attribution, the campaign query its language
 * links pass on (shared/campaign-query.ts), and what the root loader decided for this request
 * (whose words the preview uses; whether to offer the other language, from Accept-Language and
 * its cookie), taken from its data rather than worked out a second time. So reordered or
 * misspelt parameters and junk values share one entry, and no stream of made-up URLs can grow
 * the cache past the campaigns that really exist.
 *
 * A URL with an ad's click id is rendered for its request alone: the id is new for every click,
 * so its page would never be served again and would only push shared pages out of the cache.
 */
export function renderCacheKey(
  url: URL,
  root: { platform: string; suggest: boolean },
): string | null {
  if (!CACHEABLE_PATHS.has(url.pathname)) return null;
  const { query, perClick } = campaignOf(url.searchParams);
  if (perClick) return null;
  const { source, medium = "", campaign = "" } = attributionFrom(url.searchParams);
  const offer = root.suggest ? otherLocale(localeOfPath(url.pathname)) : "";
  return [url.pathname, root.platform, source, medium, campaign, offer, query].join(" ");
}
