import { useEffect, useState } from "react";
import type { CountdownCopy } from "~/content/ui";
import {
  COUNTDOWN_UNITS,
  countdownTarget,
  nextTickDelay,
  openingSentence,
  type Remaining,
  remaining,
  spokenRemaining,
} from "~/lib/countdown";
import type { Counting } from "~/lib/plural";

/** When the document started loading, so slow hydration does not stretch the two days. */
function pageLoadedAt(): number {
  const now = Date.now();
  const origin = performance.timeOrigin;
  return Number.isFinite(origin) && origin <= now ? origin : now;
}

const pad = (value: number) => String(value).padStart(2, "0");

/**
 * The beta countdown: days, hours, mins and secs. The server cannot know the visitor's clock,
 * so it (and the first browser render) shows "--" in cells of the final size; the numbers come
 * after hydration. Screen readers get one sentence, to the minute, and no live region: a
 * number announced every second would drown out the page. Nothing animates on a tick.
 */
export function Countdown({
  betaClosesAt,
  copy,
  counting,
  className = "",
}: {
  /** ISO date-time from BETA_CLOSES_AT; null = two days after the page loaded. */
  betaClosesAt: string | null;
  /** In the page's language, from the loader (content/ui.ts). */
  copy: CountdownCopy;
  /** How the page's language counts, for the sentence (lib/plural.ts). */
  counting: Counting;
  className?: string;
}) {
  const [left, setLeft] = useState<Remaining | null>(null);

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

  const sentence = left
    ? spokenRemaining(left, copy.spoken, counting)
    : openingSentence(betaClosesAt, copy, counting);

  return (
    <div className={className}>
      <p className="sr-only">{sentence}</p>
      <div aria-hidden="true" className="flex gap-2 sm:gap-3">
        {COUNTDOWN_UNITS.map((unit) => (
          <div
            key={unit}
            className="flex min-w-0 flex-1 flex-col items-center rounded-xl sm:w-20 sm:flex-none border border-slate-200 bg-white py-2 dark:border-ink-700 dark:bg-ink-900"
          >
            {/* Two digits wide from the start, the placeholder's text starting where the digits'
                will: replacing it shifts nothing. */}
            <span
              data-unit={unit}
              className="min-w-[2ch] text-start text-2xl leading-9 font-bold tabular-nums sm:text-3xl"
            >
              {left ? pad(left[unit]) : copy.placeholder}
            </span>
            <span className="text-xs font-semibold text-slate-600 uppercase dark:text-slate-400">
              {copy.units[unit]}
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}
