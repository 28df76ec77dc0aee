import { type FocusEvent, type ReactNode, useEffect, useSyncExternalStore } from "react";
import { dismiss, getServerSnapshot, getSnapshot, pause, resume, subscribe } from "~/browser/toast";

/**
 * The toasts themselves, inside the toaster's live region (components/Toaster.tsx), which loads
 * this on the page's first toast. The icon comes from there too: a module imported both here and
 * by the page's own code would be split into a chunk of its own, one more file for every visit.
 */
export default function Toasts({
  dismissLabel,
  closeIcon,
}: {
  dismissLabel: string;
  closeIcon: ReactNode;
}) {
  const toasts = useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);

  // A toast removed under the pointer or with focus fires no leave or blur: never stay paused.
  useEffect(() => {
    if (toasts.length === 0) resume();
  }, [toasts.length]);

  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) resume();
  };

  return toasts.length > 0 ? (
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
            aria-label={dismissLabel}
            onClick={() => dismiss(item.id)}
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg hover:bg-slate-100 dark:hover:bg-ink-800"
          >
            {closeIcon}
          </button>
        </li>
      ))}
    </ol>
  ) : null;
}
