/**
 * The product spec's query-cache constants (freshness 5 minutes, collection after 5 minutes)
 * applied to the server's pages: an entry is served while fresh and dropped once unused for 5
 * minutes, and the cache holds a bounded number of entries (docs/decisions/003-render-cache.md).
 */

export const FRESH_MS = 5 * 60_000;
export const COLLECT_AFTER_MS = 5 * 60_000;

type Entry<T> = { page: T; renderedAt: number; until: number; lastUsedAt: number };

export type RenderCache<T> = {
  /** The document while it is fresh; undefined when missing or stale (render it again). */
  get: (key: string) => T | undefined;
  /** Keeps `page`; it is stale after FRESH_MS, or from `until` (ms) when that comes first. */
  set: (key: string, page: T, until?: number) => void;
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
      if (time - entry.renderedAt >= FRESH_MS || time >= entry.until) return undefined;
      entry.lastUsedAt = time;
      entries.set(key, entry);
      return entry.page;
    },
    set(key, page, until = Number.POSITIVE_INFINITY) {
      const time = now();
      entries.delete(key);
      entries.set(key, { page, renderedAt: time, until, lastUsedAt: time });
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
