import type { ReactNode, SyntheticEvent } from "react";
import type { Cue } from "~/browser/tooltip";

/** What the control spreads on itself: its name, and its events for the tooltip's code. */
export type TooltipTriggerProps = {
  "aria-label": string;
  onPointerEnter: (event: SyntheticEvent<HTMLElement>) => void;
  onPointerLeave: (event: SyntheticEvent<HTMLElement>) => void;
  onPointerDown: (event: SyntheticEvent<HTMLElement>) => void;
  onFocus: (event: SyntheticEvent<HTMLElement>) => void;
  onBlur: (event: SyntheticEvent<HTMLElement>) => void;
  onKeyDown: (event: SyntheticEvent<HTMLElement>) => void;
};

let code: Promise<typeof import("~/browser/tooltip")> | undefined;

/**
 * Hands an event to the tooltip's code (browser/tooltip.ts), which loads on a control's first
 * event: a pointer entering it comes 700 ms before any bubble, and no visit pays for tooltips
 * it never asks for (docs/decisions/009-code-on-intent.md). Events keep their order: each waits
 * for the same load. What the code needs is read now, while the event is current.
 */
function relay(event: SyntheticEvent<HTMLElement> & Partial<Cue>) {
  const control = event.currentTarget;
  const at = Date.now();
  const shut = !!control.closest("details[open]");
  code ??= import("~/browser/tooltip");
  // Not come (offline): the control keeps its name; the next event asks again.
  code.then(
    (tooltip) => tooltip.cue({ ...event, at, shut }, control),
    () => {
      code = undefined;
    },
  );
}

/**
 * An icon-only control's name, shown in a tooltip too: after 700 ms of hover, at once on
 * keyboard focus. The control needs `relative` (the bubble goes inside it). Without JavaScript
 * the control is named all the same and no bubble shows.
 */
export function tooltipProps(label: string): TooltipTriggerProps {
  return {
    "aria-label": label,
    onPointerEnter: relay,
    onPointerLeave: relay,
    onPointerDown: relay,
    onFocus: relay,
    onBlur: relay,
    onKeyDown: relay,
  };
}

/** tooltipProps for a control rendered by a function (CtaLink's icon variant). */
export function Tooltip({
  label,
  children,
}: {
  /** The tooltip's text, and the control's name. */
  label: string;
  children: (trigger: { props: TooltipTriggerProps; tooltip: ReactNode }) => ReactNode;
}) {
  return <>{children({ props: tooltipProps(label), tooltip: null })}</>;
}
