/**
 * The toasts themselves, drawn into the toaster's live region (components/Toaster.tsx), which
 * loads this with the page's first toast. Plain DOM: see browser/icon-markup.ts for why not
 * React. Each toast keeps its element while it shows, so focus on its Dismiss button stays put
 * when another comes or goes.
 */
import { iconMarkup } from "~/browser/icon-markup";
import { dismiss, getSnapshot, pause, resume, subscribe } from "~/browser/toast";

const ITEM =
  "pointer-events-auto flex items-center gap-2 rounded-xl border border-slate-200 bg-white py-1 ps-4 pe-1 text-slate-900 shadow-xl motion-safe:animate-[fade-in_200ms_ease-out] dark:border-ink-700 dark:bg-ink-900 dark:text-white";
const DISMISS =
  "inline-flex size-11 shrink-0 items-center justify-center rounded-lg hover:bg-slate-100 dark:hover:bg-ink-800";

/** The region drawn into, and how to stop drawing there. */
let drawing: { region: HTMLElement; stop: () => void } | null = null;

/** Draws the toasts into the region from now on (a page has one; a new one takes over). */
export function showToasts(region: HTMLElement, dismissLabel: string) {
  if (drawing?.region === region) return;
  drawing?.stop();
  // Reading or tabbing to a toast holds every timer, so none disappears from under it.
  const list = document.createElement("ol");
  list.className = "flex w-full max-w-sm flex-col gap-2";
  list.addEventListener("mouseenter", pause);
  list.addEventListener("mouseleave", resume);
  list.addEventListener("focusin", pause);
  list.addEventListener("focusout", (event) => {
    if (!list.contains(event.relatedTarget as Node | null)) resume();
  });
  const items = new Map<number, HTMLLIElement>();

  const draw = () => {
    const toasts = getSnapshot();
    const ids = new Set(toasts.map((item) => item.id));
    for (const [id, element] of items) {
      if (ids.has(id)) continue;
      element.remove();
      items.delete(id);
    }
    for (const { id, message } of toasts) {
      if (items.has(id)) continue;
      const element = document.createElement("li");
      element.className = ITEM;
      const text = document.createElement("p");
      text.className = "flex-1 py-2 font-medium";
      text.textContent = message;
      const button = document.createElement("button");
      button.type = "button";
      button.setAttribute("aria-label", dismissLabel);
      button.className = DISMISS;
      button.innerHTML = iconMarkup("close", "size-5");
      button.addEventListener("click", () => dismiss(id));
      element.append(text, button);
      list.append(element);
      items.set(id, element);
    }
    if (toasts.length > 0 && !list.isConnected) region.append(list);
    // A toast removed under the pointer or with focus fires no leave or blur: never stay
    // paused, and leave the region empty as it began.
    if (toasts.length === 0) {
      list.remove();
      resume();
    }
  };
  drawing = { region, stop: subscribe(draw) };
  draw();
}
