import { useEffect, useRef } from "react";
import { useOptionalUi } from "~/hooks/use-site";

/** browser/toast.ts's TOAST_EVENT, written out: importing it would bring the toasts' code along. */
const TOAST_EVENT = "darb:toast";

/**
 * The page's one toaster: mount it once, then call toast() (browser/toast.ts) from any handler.
 * The live region is in the page from the start (empty on the server), because screen readers
 * only announce changes to a region they already know. The toasts' code (browser/toasts.ts)
 * comes with the first toast (docs/decisions/009-code-on-intent.md) and draws into the region,
 * which React leaves alone: it renders no children there. Toasts are rare, so a polite
 * announcement is right.
 */
export function Toaster() {
  const region = useRef<HTMLDivElement>(null);
  // Missing only on the error screen when the root loader failed: no toast comes there.
  const copy = useOptionalUi()?.toaster ?? { region: "", dismiss: "" };
  const { dismiss } = copy;

  useEffect(() => {
    // Every toast asks (the code draws from then on, so only the first needs to); one whose code
    // could not come leaves the next to try again.
    const show = () =>
      import("~/browser/toasts").then(
        (toasts) => region.current && toasts.showToasts(region.current, dismiss),
        () => {},
      );
    window.addEventListener(TOAST_EVENT, show);
    return () => window.removeEventListener(TOAST_EVENT, show);
  }, [dismiss]);

  return (
    <div
      ref={region}
      role="status"
      aria-live="polite"
      aria-label={copy.region}
      className="toast-region"
    />
  );
}
