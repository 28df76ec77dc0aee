import { TrendingDown } from "lucide-react";
import { AppScreen } from "~/components/AppScreen.server";
import { InlineIcon } from "~/components/InlineIcon.server";
import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

/**
 * An example weekly report: four numbers, week 1 against week 3, the tip behind them, and the
 * app's report screen beside them, cut off by the section's lower edge: on a phone beside the
 * tip only, so the page stays within 8 screens.
 */
export function SafetyResults() {
  const { safetyResults } = useCopy();
  const copy = safetyResults;
  return (
    <Section id="safety-results" heading={copy.heading} intro={copy.intro}>
      <figure className="grid grid-cols-[auto_1fr] gap-x-4 sm:gap-x-6 lg:grid-cols-[1fr_auto] lg:gap-x-16">
        <figcaption className="col-span-2 flex flex-wrap items-center gap-3 lg:col-span-1">
          <span className="font-semibold">{copy.week}</span>
          <span className="rounded-full bg-sand-100 px-2.5 py-0.5 text-sm font-semibold text-ink-900 dark:bg-ink-800 dark:text-sand-300">
            {copy.exampleLabel}
          </span>
        </figcaption>
        <dl className="col-span-2 mt-4 grid grid-cols-2 gap-px overflow-hidden rounded-2xl bg-slate-200 ring-1 ring-slate-200 lg:col-span-1 lg:grid-cols-4 dark:bg-ink-800 dark:ring-ink-800">
          {copy.metrics.map((metric) => (
            <div key={metric.label} className="bg-white p-4 dark:bg-ink-950">
              <dt className="text-sm font-medium subtle">{metric.label}</dt>
              <dd className="mt-1 flex items-baseline gap-2">
                <span className="metric-before">
                  <span className="sr-only">{copy.beforeLabel}: </span>
                  {metric.before}
                </span>
                <span className="metric-after">
                  <span className="sr-only">{copy.afterLabel}: </span>
                  {metric.after}
                </span>
              </dd>
              <dd className="text-sm subtle">{metric.note}</dd>
            </div>
          ))}
        </dl>
        {/* The phone rises from the section's lower edge, as the hero's does: the wrapper
            reaches through the bottom padding and clips it there (overflow-y only: the shadow
            shows at the sides); the tip beside it, not the phone, sets the row's height. */}
        <div className="relative -mb-9 mt-4 min-h-40 w-32 overflow-y-clip sm:-mb-20 sm:min-h-60 sm:w-40 lg:col-start-2 lg:row-span-3 lg:row-start-1 lg:-mt-28 lg:w-60">
          <AppScreen
            screen="report"
            lazy
            alt={copy.screenAlt}
            className="absolute inset-x-0 top-0 w-full"
          />
        </div>
        <p className="mt-4 flex gap-3 text-sm muted sm:text-base">
          <InlineIcon icon={TrendingDown} className="mt-0.5 hidden size-5 accent sm:block" />
          {copy.takeaway}
        </p>
      </figure>
    </Section>
  );
}
