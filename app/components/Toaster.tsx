import { type FocusEvent, useEffect, useSyncExternalStore } from "react";
import { dismiss, getServerSnapshot, getSnapshot, pause, resume, subscribe } from "~/browser/toast";
import { Icon } from "~/components/Icon";
import { useOptionalUi } from "~/hooks/use-site";

/**
 * The page's one toaster: mount it once, then call toast() from any handler. The live region
 * is in the page from the start (empty on the server), because screen readers only announce
 * changes to a region they already know. Toasts are rare, so a polite announcement is right.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
  // Missing only on the error screen when the root loader failed: no toast comes there.
  const copy = useOptionalUi()?.toaster ?? { region: "", dismiss: "" };

  // A toast removed under the pointer or with focus fires no leave or blur: never stay paused.
  useEffect(() => {
    if (toasts.length === 0) resume();
  }, [toasts.length]);

  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) resume();
  };

  return (
    <div
      role="status"
      aria-live="polite"
      aria-label={copy.region}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-center px-4 pb-[max(1rem,env(safe-area-inset-bottom))] sm:justify-end"
    >
      {toasts.length > 0 ? (
        // Reading or tabbing to a toast holds every timer, so none disappears from under it.
        <ol
          className="flex w-full max-w-sm flex-col gap-2"
          onMouseEnter={pause}
          onMouseLeave={resume}
          onFocus={pause}
          onBlur={onBlur}
        >
          {toasts.map((item) => (
            <li
              key={item.id}
              className="pointer-events-auto flex items-center gap-2 rounded-xl border border-slate-200 bg-white py-1 ps-4 pe-1 text-slate-900 shadow-xl motion-safe:animate-[fade-in_200ms_ease-out] dark:border-ink-700 dark:bg-ink-900 dark:text-white"
            >
              <p className="flex-1 py-2 font-medium">{item.message}</p>
              <button
                type="button"
                aria-label={copy.dismiss}
                onClick={() => dismiss(item.id)}
                className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg hover:bg-slate-100 dark:hover:bg-ink-800"
              >
                <Icon name="close" className="size-5" />
              </button>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
