import { useLocation } from "@remix-run/react";
import { type RefObject, useEffect, useRef } from "react";
import {
  type Attribution,
  attributionFrom,
  DIRECT,
  parseStoredAttribution,
} from "~/lib/attribution";

const STORAGE_KEY = "darb:attribution";

/**
 * The visit's campaign source: from this URL when it has one, else what this tab arrived with
 * (sessionStorage, no cookies). The server renders from the URL alone, so links work without JS.
 *
 * Nothing on screen shows it (events and the click listener read it), so it is kept in a ref:
 * as state it re-rendered the whole page once more right after hydration. Its effect runs
 * before the effects of hooks called after it in the same component (usePageViews).
 */
export function useVisitAttribution(): RefObject<Attribution> {
  const { search } = useLocation();
  const visit = useRef<Attribution>(DIRECT);
  useEffect(() => {
    const fromUrl = attributionFrom(new URLSearchParams(search));
    visit.current = fromUrl;
    try {
      if (fromUrl.source !== DIRECT.source) {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(fromUrl));
      } else {
        visit.current = parseStoredAttribution(sessionStorage.getItem(STORAGE_KEY)) ?? DIRECT;
      }
    } catch {
      // Storage blocked (privacy mode, sandboxed frame): the URL's attribution is all there is.
    }
  }, [search]);
  return visit;
}
