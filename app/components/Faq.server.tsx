import { Icon } from "~/components/Icon";
import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

export function Faq() {
  const { faq } = useCopy();
  return (
    <Section id="faq" heading={faq.heading} tone="tinted" layout="side">
      <div className="max-w-3xl divide-y divide-slate-200 rounded-2xl bg-white ring-1 ring-slate-200 dark:divide-ink-800 dark:bg-ink-950 dark:ring-ink-800">
        {faq.items.map((item) => (
          <details key={item.question} className="group px-5">
            <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-4 py-3 font-semibold [&::-webkit-details-marker]:hidden">
              <h3>{item.question}</h3>
              <Icon
                name="chevron-down"
                className="size-5 transition-transform group-open:rotate-180 motion-reduce:transition-none"
              />
            </summary>
            <p className="pb-4 muted">{item.answer}</p>
          </details>
        ))}
      </div>
    </Section>
  );
}
