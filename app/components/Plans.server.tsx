import { CtaLink } from "~/components/CtaLink.server";
import { Icon } from "~/components/Icon";
import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";
import { useSite } from "~/hooks/use-site";
import { whatsappLink } from "~/shared/contact-links";
import { formatPrice } from "~/shared/format";

/**
 * The three plans, each with its yearly price, what a driver gets during the beta, and a button
 * that opens WhatsApp with a message naming the plan (the lead names it too: `plan=`).
 */
export function Plans() {
  const { plans, intl } = useCopy();
  const site = useSite();
  return (
    <Section id="plans" heading={plans.heading} intro={plans.intro} tone="tinted">
      {/* A row to swipe on a phone, each card a little narrower than the screen so the next one
          shows; side by side from md. */}
      <ul className="plan-row">
        {plans.items.map((plan) => (
          <li
            key={plan.id}
            className={`plan-card ${plan.highlighted ? "ring-2 ring-road-600 dark:ring-road-500" : "ring-1 ring-slate-200 dark:ring-ink-800"}`}
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="text-xl font-bold">{plan.name}</h3>
              {plan.highlighted ? (
                <span className="rounded-full bg-road-700 px-3 py-1 text-xs font-semibold text-white dark:bg-road-500 dark:text-ink-950">
                  {plans.betaBadge}
                </span>
              ) : null}
            </div>
            <p className="mt-2 text-3xl font-extrabold tracking-tight tabular-nums">
              {plan.price === 0 ? plans.free : formatPrice(plan.price, plans.currency, intl)}
              {plan.price > 0 ? " " : null}
              {plan.price > 0 ? (
                <span data-plan-period={plan.id} className="text-base font-medium subtle">
                  {plans.periodLabel[plans.period]}
                </span>
              ) : null}
            </p>
            <p data-plan-beta={plan.id} className="mt-1 text-sm font-semibold accent">
              {plan.beta}
            </p>
            <p className="mt-2 text-sm muted">{plan.summary}</p>
            <ul className="mt-4 flex-1 space-y-2 text-sm">
              {plan.features.map((feature) => (
                <li key={feature} className="flex gap-2">
                  <Icon name="check" className="plan-check" />
                  {feature}
                </li>
              ))}
            </ul>
            <CtaLink
              placement={`plan-${plan.id}`}
              variant={plan.highlighted ? "primary" : "secondary"}
              className="mt-5 w-full"
              cta={{
                text: plan.cta,
                ctaType: "whatsapp",
                external: true,
                href: whatsappLink(site.whatsappNumber, plan.whatsappMessage),
                plan: plan.id,
              }}
            />
          </li>
        ))}
      </ul>
    </Section>
  );
}
