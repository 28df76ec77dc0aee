import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

export function Features() {
  const { features } = useCopy();
  return (
    <Section id="features" heading={features.heading} intro={features.intro} tone="tinted">
      <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {features.items.map((item) => (
          <li
            key={item.title}
            className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 dark:bg-ink-950 dark:ring-ink-800"
          >
            <item.icon aria-hidden="true" className="size-8 text-road-700 dark:text-road-500" />
            <h3 className="mt-4 text-lg font-semibold">{item.title}</h3>
            <p className="mt-2 text-slate-700 dark:text-slate-300">{item.body}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
