import { useEffect, useState } from "react";
import type { CountdownCopy } from "~/content/ui";
import {
  COUNTDOWN_UNITS,
  countdownTarget,
  firstRemaining,
  nextTickDelay,
  type Remaining,
  remaining,
  spokenRemaining,
} from "~/shared/countdown";
import { type Counting, counted } from "~/shared/plural";

/** When the document started loading, so slow hydration does not stretch the two days. */
function pageLoadedAt(): number {
  const now = Date.now();
  const origin = performance.timeOrigin;
  return Number.isFinite(origin) && origin <= now ? origin : now;
}

const pad = (value: number) => String(value).padStart(2, "0");

/**
 * The beta countdown: days, hours, mins and secs. The server renders the time left when it
 * rendered the page (`renderedAt`), and the browser's first render computes exactly that again,
 * so hydration matches; then it ticks from the browser's clock. Cells keep their size whatever
 * the digits, so nothing moves when the numbers change. Screen readers get one sentence, to the
 * minute, and no live region: a number announced every second would drown out the page.
 */
export function Countdown({
  betaClosesAt,
  renderedAt,
  copy,
  counting,
  className = "",
}: {
  /** ISO date-time from BETA_CLOSES_AT; null = two days after the page loaded. */
  betaClosesAt: string | null;
  /** The server's clock (ms) when it rendered this page, from the loader. */
  renderedAt: number;
  /** In the page's language, from the loader (content/ui.ts). */
  copy: CountdownCopy;
  /** How the page's language counts, for the labels and the sentence (shared/plural.ts). */
  counting: Counting;
  className?: string;
}) {
  const [left, setLeft] = useState<Remaining>(() => firstRemaining(betaClosesAt, renderedAt));

  useEffect(() => {
    const target = countdownTarget(betaClosesAt, pageLoadedAt());
    let timer: number | undefined;
    const tick = () => {
      const now = Date.now();
      const next = remaining(target, now);
      setLeft(next);
      if (!next.done) timer = window.setTimeout(tick, nextTickDelay(target, now));
    };
    tick();
    return () => window.clearTimeout(timer);
  }, [betaClosesAt]);

  return (
    <div className={className}>
      <p className="sr-only">{spokenRemaining(left, copy.spoken, counting)}</p>
      <div aria-hidden="true" className="flex gap-1.5">
        {COUNTDOWN_UNITS.map((unit) => {
          const current = counted(counting, left[unit], copy.units[unit]);
          return (
            <div key={unit} className="count-cell">
              {/* Tabular digits: a number that changes keeps its width. */}
              <span data-unit={unit} className="text-lg leading-6 font-bold tabular-nums">
                {pad(left[unit])}
              </span>
              {/* The label in the form its number takes. Every form sits in the same place and
                  only the current one shows: centred text that changed width ("days" to "day",
                  "يومان" to "يوم") would move, a layout shift; one form giving way moves nothing. */}
              <span className="count-unit">
                {[...new Set(Object.values(copy.units[unit]) as string[])].map((form) => (
                  <span
                    key={form}
                    data-unit-label={form === current ? unit : undefined}
                    className={form === current ? undefined : "invisible"}
                  >
                    {form}
                  </span>
                ))}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
