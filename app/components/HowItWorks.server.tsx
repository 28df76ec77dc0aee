import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

/** Three steps down one dashed road line (on a phone; side by side from md). */
export function HowItWorks() {
  const { howItWorks } = useCopy();
  return (
    <Section id="how-it-works" heading={howItWorks.heading} intro={howItWorks.intro}>
      <ol className="grid gap-6 md:grid-cols-3 md:gap-8">
        {howItWorks.steps.map((step, index) => (
          <li key={step.title} className="step badged relative">
            <span className="step-badge">{index + 1}</span>
            <h3 className="badged-title">{step.title}</h3>
            <p className="mt-1 muted">{step.body}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}
