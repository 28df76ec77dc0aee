import { useEffect, useState, useSyncExternalStore } from "react";
import type { CountdownCopy } from "~/content/ui";
import {
  BETA_START_GLOBAL,
  COUNTDOWN_UNITS,
  countdownTarget,
  firstRemaining,
  nextTickDelay,
  type Remaining,
  remaining,
  spokenRemaining,
} from "~/shared/countdown";
import { type Counting, counted } from "~/shared/plural";

/**
 * When this browser first loaded the page, as the page's start script left it
 * (document/countdown-start.server.ts); now, should that script not have run.
 */
const firstLoadedAt = () =>
  (window as unknown as Record<string, number | undefined>)[BETA_START_GLOBAL] ?? Date.now();

const never = () => () => {};

const pad = (value: number) => String(value).padStart(2, "0");

/**
 * The beta countdown: days, hours, mins and secs (docs/decisions/018-countdown-that-keeps-its-word.md).
 * The server renders the time left when it rendered the page (`renderedAt`), and hydration
 * computes exactly that again, so React finds the server's text; then it ticks from the browser's
 * clock, to BETA_CLOSES_AT or to two days after this browser first loaded the page. Where those
 * first figures are not the server's, the start script has hidden the cells (space kept) until
 * that first tick, which marks them `data-ticking` in the same render. A later mount (a
 * client-side navigation back) starts from the browser's figures, ticking. Cells keep their size
 * whatever the digits, so nothing moves when the numbers change. Screen readers get one sentence, to the minute, and no live region: a
 * number announced every second would drown out the page.
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
  // True on the server and while hydrating, when the cells must be the server's.
  const hydrating = useSyncExternalStore(
    never,
    () => false,
    () => true,
  );
  const [left, setLeft] = useState<Remaining>(() =>
    hydrating
      ? firstRemaining(betaClosesAt, renderedAt)
      : remaining(countdownTarget(betaClosesAt, firstLoadedAt()), Date.now()),
  );
  // A later mount shows the browser's figures from the start: marked ticking at once.
  const [ticking, setTicking] = useState(!hydrating);

  useEffect(() => {
    const target = countdownTarget(betaClosesAt, firstLoadedAt());
    let timer: number | undefined;
    const tick = () => {
      const now = Date.now();
      const next = remaining(target, now);
      // One render for both: the cells show again with this browser's figures in them.
      setLeft(next);
      setTicking(true);
      if (!next.done) timer = window.setTimeout(tick, nextTickDelay(target, now));
    };
    tick();
    return () => window.clearTimeout(timer);
  }, [betaClosesAt]);

  return (
    // Until it ticks, the start script may have it hidden (document/countdown-start.server.ts).
    <div className={className} data-countdown="" data-ticking={ticking ? "" : undefined}>
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
