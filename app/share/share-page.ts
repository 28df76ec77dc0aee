import { SHARE_PLATFORMS, type SharePlatform } from "~/shared/share-platforms";

/*
 * What only the /share page needs: kept out of share/share.ts, which the header's share menu brings
 * into every page's script.
 */

/** The networks in the order to offer them: the one asked for (?platform=…) first, if any. */
export function sharePlatformsFor(asked: string): SharePlatform[] {
  const first = SHARE_PLATFORMS.find((name) => name === asked);
  return first
    ? [first, ...SHARE_PLATFORMS.filter((name) => name !== first)]
    : [...SHARE_PLATFORMS];
}

/**
 * A link as people read it, "darb.ae/ar": no scheme, no query, no trailing slash on the home page.
 * The link itself (with its ?source=) is what is copied and sent.
 */
export function displayLink(url: string): string {
  const { host, pathname } = new URL(url);
  return `${host}${pathname === "/" ? "" : pathname}`;
}
