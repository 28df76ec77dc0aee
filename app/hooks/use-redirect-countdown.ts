import { useCallback, useEffect, useState } from "react";

function cameBack(): boolean {
  const entry = performance.getEntriesByType("navigation")[0] as
    | PerformanceNavigationTiming
    | undefined;
  return entry?.type === "back_forward";
}

export type RedirectState = "counting" | "stopped" | "returned";

/**
 * With JavaScript, /thank-you moves on by itself after `seconds` (counted from the document's
 * start, as the no-script refresh would), and the visitor can stop it (WCAG 2.2.1). A visitor
 * coming Back from WhatsApp or the demo is not sent out again. Leaving the page cancels it.
 */
export function useRedirectCountdown(seconds: number, target: string | null) {
  const [remaining, setRemaining] = useState(seconds);
  const [state, setState] = useState<RedirectState>("counting");

  useEffect(() => {
    if (target === null || state !== "counting") return;
    if (cameBack()) {
      setState("returned");
      return;
    }
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) setState("returned");
    };
    window.addEventListener("pageshow", onShow);
    let timer = 0;
    const tick = () => {
      const left = Math.max(0, seconds - performance.now() / 1000);
      setRemaining(Math.ceil(left));
      if (left <= 0) window.location.assign(target);
      else timer = window.setTimeout(tick, Math.min(250, left * 1000));
    };
    tick();
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener("pageshow", onShow);
    };
  }, [seconds, target, state]);

  const stop = useCallback(() => setState("stopped"), []);
  return { remaining, state, stop };
}
