import {
  type FocusEvent,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";

/** docs/product.md, Constants. */
export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

// Shared by every tooltip on the page: one shows at a time, and moving straight on to the next
// control skips the delay.
const shared: { lastClosedAt: number; open: { current: () => void } | null } = {
  lastClosedAt: Number.NEGATIVE_INFINITY,
  open: null,
};

/** What the control spreads on itself. */
export type TooltipTriggerProps = {
  "aria-label"?: string;
  "aria-describedby"?: string;
  onPointerEnter: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave: () => void;
  onPointerDown: () => void;
  onFocus: (event: FocusEvent<HTMLElement>) => void;
  onBlur: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
};

export type TooltipProps = {
  /** The tooltip's text. */
  label: string;
  /**
   * false (default): the control is icon-only and `label` becomes its accessible name
   * (aria-label); the bubble is only the visual label. true: the control already has a name
   * and the bubble is linked as its description (aria-describedby).
   */
  describes?: boolean;
  side?: "top" | "bottom";
  /** Keeps it shut, e.g. while the control's own menu is open where the bubble would be. */
  disabled?: boolean;
  /**
   * Renders the control. `tooltip` goes inside it (or a `relative` parent next to it) and the
   * control needs `relative`; no wrapper is added, so a <summary> can stay first in <details>.
   */
  children: (trigger: { props: TooltipTriggerProps; tooltip: ReactNode }) => ReactNode;
};

/**
 * A tooltip for a control: after 700 ms of hover, at once on keyboard focus. Without
 * JavaScript the control is unchanged and the tooltip never shows.
 */
export function Tooltip({
  label,
  describes = false,
  side = "bottom",
  disabled = false,
  children,
}: TooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const openRef = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  // Read by a pending open timer, which an earlier render set up.
  const disabledRef = useRef(disabled);
  disabledRef.current = disabled;

  const hide = () => {
    clearTimeout(timer.current);
    if (!openRef.current) return;
    openRef.current = false;
    setOpen(false);
    shared.lastClosedAt = Date.now();
    if (shared.open === hideRef) shared.open = null;
  };
  // A stable handle on this instance's latest hide(), for the listeners and the other tooltips.
  const hideRef = useRef(hide);
  hideRef.current = hide;

  const show = () => {
    clearTimeout(timer.current);
    if (openRef.current || disabledRef.current) return;
    shared.open?.current();
    openRef.current = true;
    setOpen(true);
    shared.open = hideRef;
  };

  // Escape dismisses it wherever focus is, so it can be put away without moving the pointer
  // (WCAG 1.4.13). The listener only exists while the tooltip shows.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === "Escape") hideRef.current();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  useEffect(() => {
    if (disabled) hideRef.current();
  }, [disabled]);

  useEffect(() => () => hideRef.current(), []);

  const props: TooltipTriggerProps = {
    onPointerEnter(event) {
      // A tap also "enters": a tooltip would then open late and stay stuck on a phone.
      if (event.pointerType === "touch" || openRef.current) return;
      const since = Date.now() - shared.lastClosedAt;
      if (since >= 0 && since < TOOLTIP_SKIP_DELAY_MS) show();
      else {
        clearTimeout(timer.current);
        timer.current = setTimeout(show, TOOLTIP_OPEN_DELAY_MS);
      }
    },
    onPointerLeave: hide,
    // Pressing the control means the user knows what it is; keep the bubble off its menu.
    onPointerDown: hide,
    onFocus(event) {
      if (focusVisible(event.currentTarget)) show();
    },
    onBlur: hide,
    onKeyDown(event) {
      if (event.key === "Enter" || event.key === " ") hide();
    },
  };
  if (describes) props["aria-describedby"] = id;
  else props["aria-label"] = label;

  // A description must exist to be read, so a describing tooltip is always in the DOM (hidden
  // when closed). It is aria-hidden either way: it sits inside the control, whose name it must
  // not join, and aria-describedby still reads hidden text it points at.
  // The ::before strip bridges the gap to the control, so the pointer can move onto the
  // bubble without closing it (WCAG 1.4.13).
  const tooltip =
    open || describes ? (
      <span
        id={id}
        role="tooltip"
        hidden={!open}
        aria-hidden="true"
        className={`absolute start-1/2 z-50 w-max max-w-60 -translate-x-1/2 rounded-lg bg-ink-900 px-2.5 py-1.5 text-sm font-medium text-white shadow-lg motion-safe:animate-[fade-in_150ms_ease-out] rtl:translate-x-1/2 dark:bg-white dark:text-ink-900 ${side === "top" ? "bottom-full mb-2 before:-bottom-2" : "top-full mt-2 before:-top-2"} before:absolute before:inset-x-0 before:h-2`}
      >
        {label}
      </span>
    ) : null;

  return <>{children({ props, tooltip })}</>;
}

/** Keyboard focus, not the focus a mouse click gives some controls. */
function focusVisible(element: HTMLElement): boolean {
  try {
    return element.matches(":focus-visible");
  } catch {
    return true;
  }
}
