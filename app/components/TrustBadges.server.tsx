import { InlineIcon } from "~/components/InlineIcon.server";
import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

/** What a driver can hold us to, in the same dark band as the testimonial: a grid, no boxes. */
export function TrustBadges() {
  const { trust } = useCopy();
  return (
    <Section id="trust" heading={trust.heading} tone="dark" className="pt-4 sm:pt-10">
      <ul className="grid grid-cols-2 gap-x-5 gap-y-6 lg:grid-cols-4">
        {trust.items.map((item) => (
          <li key={item.title}>
            <InlineIcon icon={item.icon} className="size-6 text-road-500" />
            <h3 className="mt-2 font-semibold">{item.title}</h3>
            <p className="mt-1 text-sm text-slate-300">{item.body}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
