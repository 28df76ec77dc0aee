import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

/** Three steps down one dashed road line (on a phone; side by side from md). */
export function HowItWorks() {
  const { howItWorks } = useCopy();
  return (
    <Section id="how-it-works" heading={howItWorks.heading} intro={howItWorks.intro}>
      <ol className="grid gap-6 md:grid-cols-3 md:gap-8">
        {howItWorks.steps.map((step, index) => (
          <li
            key={step.title}
            className="step relative grid grid-cols-[2.5rem_1fr] content-start gap-x-4"
          >
            <span className="row-span-2 grid size-10 place-items-center rounded-full bg-road-700 font-bold text-white dark:bg-road-500 dark:text-ink-950">
              {index + 1}
            </span>
            <h3 className="pt-1.5 text-lg leading-snug font-semibold">{step.title}</h3>
            <p className="mt-1 muted">{step.body}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}
