import { TrendingDown } from "lucide-react";
import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

/** An example weekly report: four numbers, week 1 against week 3, and the tip behind them. */
export function SafetyResults() {
  const { safetyResults } = useCopy();
  const copy = safetyResults;
  return (
    <Section id="safety-results" heading={copy.heading} intro={copy.intro}>
      <figure>
        <figcaption className="flex flex-wrap items-center gap-3">
          <span className="font-semibold">{copy.week}</span>
          <span className="rounded-full bg-sand-100 px-2.5 py-0.5 text-sm font-semibold text-ink-900 dark:bg-ink-800 dark:text-sand-300">
            {copy.exampleLabel}
          </span>
        </figcaption>
        <dl className="mt-4 grid grid-cols-2 gap-px overflow-hidden rounded-2xl bg-slate-200 ring-1 ring-slate-200 lg:grid-cols-4 dark:bg-ink-800 dark:ring-ink-800">
          {copy.metrics.map((metric) => (
            <div key={metric.label} className="bg-white p-4 dark:bg-ink-950">
              <dt className="text-sm font-medium subtle">{metric.label}</dt>
              <dd className="mt-1 flex items-baseline gap-2">
                <span className="text-sm text-slate-600 line-through decoration-slate-400 dark:text-slate-400">
                  <span className="sr-only">{copy.beforeLabel}: </span>
                  {metric.before}
                </span>
                <span className="text-3xl font-bold text-road-700 tabular-nums dark:text-road-500">
                  <span className="sr-only">{copy.afterLabel}: </span>
                  {metric.after}
                </span>
              </dd>
              <dd className="text-sm subtle">{metric.note}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-4 flex gap-3 muted">
          <TrendingDown aria-hidden="true" className="mt-0.5 size-5 shrink-0 accent" />
          {copy.takeaway}
        </p>
      </figure>
    </Section>
  );
}
