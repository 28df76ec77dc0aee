import { lazy, Suspense, useEffect, useReducer } from "react";
import { Icon } from "~/components/Icon";
import { useOptionalUi } from "~/hooks/use-site";

// Fetched with the page's first toast, never before (docs/decisions/009-code-on-intent.md).
const Toasts = lazy(() => import("~/components/Toasts"));

/** browser/toast.ts's TOAST_EVENT, written out: importing it would bring the toasts' code along. */
const TOAST_EVENT = "darb:toast";

/**
 * The page's one toaster: mount it once, then call toast() (browser/toast.ts) from any handler.
 * The live region is in the page from the start (empty on the server), because screen readers
 * only announce changes to a region they already know; the toasts' code comes with the first
 * toast. Toasts are rare, so a polite announcement is right.
 */
export function Toaster() {
  const [shown, show] = useReducer(() => true, false);
  useEffect(() => {
    window.addEventListener(TOAST_EVENT, show, { once: true });
    return () => window.removeEventListener(TOAST_EVENT, show);
  }, []);
  // Missing only on the error screen when the root loader failed: no toast comes there.
  const copy = useOptionalUi()?.toaster ?? { region: "", dismiss: "" };
  return (
    <div
      role="status"
      aria-live="polite"
      aria-label={copy.region}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-center px-4 pb-[max(1rem,env(safe-area-inset-bottom))] sm:justify-end"
    >
      {shown ? (
        <Suspense fallback={null}>
          <Toasts
            dismissLabel={copy.dismiss}
            closeIcon={<Icon name="close" className="size-5" />}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
