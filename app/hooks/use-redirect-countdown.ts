import { useEffect, useState } from "react";

function cameBack(): boolean {
  const entry = performance.getEntriesByType("navigation")[0] as
    | PerformanceNavigationTiming
    | undefined;
  return entry?.type === "back_forward";
}

/**
 * Mirrors the page's <meta http-equiv="refresh"> as a visible countdown. A visitor who comes
 * Back from WhatsApp or the demo is not bounced out again: the pending refresh is cancelled
 * (window.stop) and they choose when to go.
 */
export function useRedirectCountdown(seconds: number, active: boolean) {
  const [remaining, setRemaining] = useState(seconds);
  const [returned, setReturned] = useState(false);
  useEffect(() => {
    if (!active) return;
    const stay = () => {
      window.stop();
      setReturned(true);
    };
    if (cameBack()) return stay();
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) stay();
    };
    window.addEventListener("pageshow", onShow);
    // The refresh started with the document, before hydration: count from there.
    const tick = () => setRemaining(Math.max(0, Math.ceil(seconds - performance.now() / 1000)));
    tick();
    const timer = window.setInterval(tick, 250);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("pageshow", onShow);
    };
  }, [seconds, active]);
  return { remaining, returned };
}
