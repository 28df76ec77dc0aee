import { useLocation } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
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
 */
export function useVisitAttribution(): { attribution: Attribution; ready: boolean } {
  const { search } = useLocation();
  const fromUrl = useMemo(() => attributionFrom(new URLSearchParams(search)), [search]);
  const [stored, setStored] = useState<Attribution | null>(null);
  // False until this tab's stored source has been read: events wait for it.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    setReady(true);
    try {
      if (fromUrl.source !== DIRECT.source) {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(fromUrl));
        setStored(fromUrl);
      } else {
        setStored(parseStoredAttribution(sessionStorage.getItem(STORAGE_KEY)));
      }
    } catch {
      // Storage can be off (private modes, policies); the URL's value still holds.
    }
  }, [fromUrl]);
  const attribution = fromUrl.source !== DIRECT.source ? fromUrl : (stored ?? DIRECT);
  return { attribution, ready };
}
