import { InlineIcon } from "~/components/InlineIcon.server";
import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

/** The five claims of docs/product.md, each with what it means on Dubai's roads: a list, not boxes. */
export function Features() {
  const { features } = useCopy();
  return (
    <Section id="features" heading={features.heading} intro={features.intro} tone="sand">
      <ul className="grid gap-x-10 gap-y-6 sm:grid-cols-2 lg:grid-cols-3">
        {features.items.map((item) => (
          <li key={item.title} className="grid grid-cols-[2.5rem_1fr] content-start gap-x-4">
            <span className="row-span-2 grid size-10 place-items-center rounded-xl bg-road-700/10 text-road-700 dark:bg-road-500/15 dark:text-road-500">
              <InlineIcon icon={item.icon} className="size-5" />
            </span>
            <h3 className="pt-1.5 text-lg leading-snug font-semibold">{item.title}</h3>
            <p className="mt-1 text-[0.9375rem] muted sm:text-base">{item.body}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
