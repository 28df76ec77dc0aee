import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

export function HowItWorks() {
  const { howItWorks } = useCopy();
  return (
    <Section id="how-it-works" heading={howItWorks.heading} intro={howItWorks.intro}>
      <ol className="grid gap-6 md:grid-cols-3">
        {howItWorks.steps.map((step, index) => (
          <li
            key={step.title}
            className="relative rounded-2xl border border-slate-200 p-6 dark:border-ink-800"
          >
            <span className="flex items-center gap-3">
              <span className="grid size-10 place-items-center rounded-full bg-road-700 font-bold text-white dark:bg-road-500 dark:text-ink-950">
                {index + 1}
              </span>
              <step.icon aria-hidden="true" className="size-6 text-road-700 dark:text-road-500" />
            </span>
            <h3 className="mt-4 text-lg font-semibold">{step.title}</h3>
            <p className="mt-2 text-slate-700 dark:text-slate-300">{step.body}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}
