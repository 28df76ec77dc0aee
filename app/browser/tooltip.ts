/**
 * The tooltips of icon-only controls: after 700 ms of hover, at once on keyboard focus, one at a
 * time, and at once for a neighbour within 300 ms of the last one closing. Plain DOM, loaded on
 * a control's first event (components/Tooltip.tsx, docs/decisions/009-code-on-intent.md): the
 * control already carries its name (aria-label), and the bubble only shows it.
 */

/** docs/product.md, Constants. */
export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

/** What the control heard, read when it happened (the code may arrive after it). */
export type Cue = {
  type: string;
  /** Date.now() at the event. */
  at: number;
  pointerType?: string;
  key?: string;
  /** The control's own menu was open at the event (a <details> it sits in). */
  shut?: boolean;
};

// Inside the control, which is `relative`; aria-hidden, so it never joins the control's name.
// The ::before strip bridges the gap to the control, so the pointer can move onto the bubble
// without closing it (WCAG 1.4.13).
const BUBBLE =
  "absolute start-1/2 top-full z-50 mt-2 w-max max-w-60 -translate-x-1/2 rounded-lg bg-ink-900 px-2.5 py-1.5 text-sm font-medium text-white shadow-lg motion-safe:animate-[fade-in_150ms_ease-out] before:absolute before:inset-x-0 before:-top-2 before:h-2 rtl:translate-x-1/2 dark:bg-white dark:text-ink-900";

let shown: { control: HTMLElement; bubble: HTMLElement } | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let lastClosedAt = Number.NEGATIVE_INFINITY;

// Escape dismisses it wherever focus is, so it can be put away without moving the pointer
// (WCAG 1.4.13). The listener only exists while a tooltip shows.
const onKey = (event: KeyboardEvent) => {
  if (event.key === "Escape") hideTooltip();
};

function show(control: HTMLElement) {
  clearTimeout(timer);
  // Kept off the control's own menu while it is open.
  if (shown?.control === control || control.closest("details")?.open) return;
  hideTooltip();
  const bubble = document.createElement("span");
  bubble.setAttribute("role", "tooltip");
  bubble.setAttribute("aria-hidden", "true");
  bubble.className = BUBBLE;
  bubble.textContent = control.getAttribute("aria-label");
  control.append(bubble);
  shown = { control, bubble };
  document.addEventListener("keydown", onKey);
}

export function hideTooltip() {
  clearTimeout(timer);
  if (!shown) return;
  shown.bubble.remove();
  shown = null;
  lastClosedAt = Date.now();
  document.removeEventListener("keydown", onKey);
}

/** One event on a control with a tooltip. */
export function cue({ type, at, pointerType, key, shut }: Cue, control: HTMLElement) {
  if (type === "pointerenter") {
    // A tap also "enters": a tooltip would then open late and stay stuck on a phone.
    if (pointerType === "touch" || shown?.control === control) return;
    const since = at - lastClosedAt;
    if (since >= 0 && since < TOOLTIP_SKIP_DELAY_MS) show(control);
    else {
      clearTimeout(timer);
      // From the event, not from when this code arrived.
      timer = setTimeout(() => show(control), TOOLTIP_OPEN_DELAY_MS - (Date.now() - at));
    }
  } else if (type === "focus") {
    // Keyboard focus, not the focus a mouse click gives some controls; and still there.
    if (!shut && document.activeElement === control && focusVisible(control)) show(control);
  } else if (type !== "keydown" || key === "Enter" || key === " ") {
    // Leaving, pressing or blurring the control: the user knows what it is.
    hideTooltip();
  }
}

function focusVisible(element: HTMLElement): boolean {
  try {
    return element.matches(":focus-visible");
  } catch {
    return true;
  }
}
