import { CtaLink } from "~/components/CtaLink.server";
import { Icon } from "~/components/Icon";
import { Section } from "~/components/Section.server";
import { formatPrice } from "~/content/format";
import { useCopy } from "~/hooks/use-copy.server";
import { useSite } from "~/hooks/use-site";
import { whatsappLink } from "~/shared/contact-links";

/** The plan beta drivers get first, then the others in the content's order (by price). */
function offerFirst<Plan extends { highlighted: boolean }>(items: readonly Plan[]) {
  return [
    ...items.filter((plan) => plan.highlighted),
    ...items.filter((plan) => !plan.highlighted),
  ];
}

/**
 * The three plans, each with its yearly price, what a driver gets during the beta, and a button
 * that opens WhatsApp with a message naming the plan (the lead names it too: `plan=`). The offer
 * (Plus, free for beta drivers) comes first in the markup, so a phone shows it first and a screen
 * reader reads it first; from md the grid puts it between Basic and Pro, in price order
 * (`plan-grid` in tailwind.css, docs/decisions/021-offer-first.md).
 */
export function Plans() {
  const { plans, intl } = useCopy();
  const site = useSite();
  return (
    <Section id="plans" heading={plans.heading} intro={plans.intro} tone="tinted">
      <ul className="plan-grid">
        {offerFirst(plans.items).map((plan) => (
          <li key={plan.id} className={plan.highlighted ? "plan-card plan-offer" : "plan-card"}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="plan-name">{plan.name}</h3>
              {plan.highlighted ? <span className="plan-badge">{plans.betaBadge}</span> : null}
            </div>
            <p className="plan-price">
              {plan.price === 0 ? plans.free : formatPrice(plan.price, plans.currency, intl)}
              {plan.price > 0 ? " " : null}
              {plan.price > 0 ? (
                <span data-plan-period={plan.id} className="plan-period">
                  {plans.periodLabel[plans.period]}
                </span>
              ) : null}
            </p>
            <p data-plan-beta={plan.id} className="plan-beta">
              {plan.beta}
            </p>
            <p className="plan-summary">{plan.summary}</p>
            <ul className="plan-features">
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
              className="plan-cta"
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
