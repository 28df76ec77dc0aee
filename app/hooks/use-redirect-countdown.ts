import { useCallback, useEffect, useState } from "react";
import { earlyHandOff } from "~/shared/early-hand-off";

function cameBack(): boolean {
  const entry = performance.getEntriesByType("navigation")[0] as
    | PerformanceNavigationTiming
    | undefined;
  return entry?.type === "back_forward";
}

/**
 * "counting" down to the hand-off; "handedOff" once the target was opened and the page is still
 * here (a mailto: with no mail app, an app that did not open): it says what to do then;
 * "stopped" by the visitor; "returned" with Back from where it led, or when the server knew the
 * lead already (a reload, the same tap again): the thanks and the button, no redirect.
 */
export type RedirectState = "counting" | "handedOff" | "stopped" | "returned";

/**
 * How long "Continuing now…" stays after the hand-off before the page says what to do if
 * nothing opened: a real navigation (WhatsApp, the demo) has replaced the page by then.
 */
export const HAND_OFF_GRACE_MS = 1500;

/**
 * With JavaScript, /thank-you moves on by itself `seconds` after the tap (the document's start),
 * and the visitor can stop it (WCAG 2.2.1). The page's inline script (shared/early-hand-off.ts)
 * started that before hydration; this counts down beside it, and opens the target itself only
 * where no such script ran. A visitor coming Back from WhatsApp or the demo is not sent out
 * again, nor is one the server saw before (`handOff` false). Leaving the page cancels it.
 */
export function useRedirectCountdown(seconds: number, target: string | null, handOff = true) {
  const [remaining, setRemaining] = useState(seconds);
  const [state, setState] = useState<RedirectState>(handOff ? "counting" : "returned");

  useEffect(() => {
    if (target === null || state !== "counting") return;
    const early = earlyHandOff();
    if (cameBack()) {
      early?.cancel();
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
      if (left > 0) {
        timer = window.setTimeout(tick, Math.min(250, left * 1000));
        return;
      }
      // The script's own timer, due at the same moment, opens it once.
      if (!early || early.state === "cancelled") window.location.assign(target);
      timer = window.setTimeout(() => setState("handedOff"), HAND_OFF_GRACE_MS);
    };
    tick();
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener("pageshow", onShow);
      // Stopped, or the page left through the router: nothing may open after that.
      early?.cancel();
    };
  }, [seconds, target, state]);

  const stop = useCallback(() => setState("stopped"), []);
  return { remaining, state, stop };
}
