import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

export function TrustBadges() {
  const { trust } = useCopy();
  return (
    <Section id="trust" heading={trust.heading}>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {trust.items.map((item) => (
          <li
            key={item.title}
            className="flex gap-4 rounded-2xl border border-slate-200 p-5 dark:border-ink-800"
          >
            <item.icon
              aria-hidden="true"
              className="size-7 shrink-0 text-road-700 dark:text-road-500"
            />
            <div>
              <h3 className="font-semibold">{item.title}</h3>
              <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{item.body}</p>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}
