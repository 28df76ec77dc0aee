import { useEffect } from "react";
import { ACTION_SECTION_IDS, HERO_MAIN_ACTION_ID, STICKY_ACTION_ID } from "~/shared/landing-ids";

/**
 * Shows the sticky action (components/StickyAction.server.tsx) while the hero's main action is
 * above the screen (under the 64 px sticky header counts as above) and no section with the same
 * action, nor the footer, is on it. An attribute on a static
 * part's element, set from one observer: no rendering, no scroll listener. Without JavaScript
 * (or IntersectionObserver) the bar stays away and the page's own actions remain.
 */
/** The sticky header's height (h-16): what is under it is out of sight. */
const HEADER = 64;

export function useStickyAction() {
  useEffect(() => {
    const bar = document.getElementById(STICKY_ACTION_ID);
    const main = document.getElementById(HERO_MAIN_ACTION_ID);
    const ends = [
      ...ACTION_SECTION_IDS.map((id) => document.getElementById(id)),
      document.querySelector("footer"),
    ];
    if (!bar || !main || typeof IntersectionObserver === "undefined") return;
    const latest = new Map<Element, IntersectionObserverEntry>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) latest.set(entry.target, entry);
        const hero = latest.get(main);
        const past = !!hero && !hero.isIntersecting && hero.boundingClientRect.bottom <= HEADER;
        const atEnd = ends.some((end) => end && latest.get(end)?.isIntersecting);
        bar.toggleAttribute("data-shown", past && !atEnd);
      },
      { rootMargin: `-${HEADER}px 0px 0px 0px` },
    );
    for (const target of [main, ...ends]) if (target) observer.observe(target);
    return () => {
      observer.disconnect();
      bar.removeAttribute("data-shown");
    };
  }, []);
}
