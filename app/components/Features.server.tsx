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
          <li key={item.title} className="badged">
            <span className="feature-badge">
              <InlineIcon icon={item.icon} className="size-5" />
            </span>
            <h3 className="badged-title">{item.title}</h3>
            <p className="mt-1 text-[0.9375rem] muted sm:text-base">{item.body}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
