/**
 * App plans (docs/product.md: free, 149 AED and 299 AED). A price needs a period, so the paid
 * plans are priced per year, as insurance-linked apps usually are, and say what beta drivers get: Plus at no cost (the "lifetime premium features" for a
 * download before 15 June).
 */
export type PlanPeriod = "month" | "year";

export const plans = {
  heading: "App plans",
  /** One line on a phone: the offer itself is the first card. */
  intro: "Prices are per year, from launch.",
  currency: "AED",
  /** Every paid price is for this long (the structured data's offers say the same). */
  period: "year",
  /** Shown after a paid price: "AED 149 per year" (a slash would be read out as "slash"). */
  periodLabel: { month: "per month", year: "per year" },
  /** The period's unit, for the structured data's unitText. */
  periodUnit: { month: "month", year: "year" },
  free: "Free",
  /** The badge on the plan beta drivers get, which comes first. */
  betaBadge: "Free for beta drivers",
  items: [
    {
      id: "basic",
      name: "Basic",
      price: 0,
      /** What a driver gets on this plan now, under the price. */
      beta: "Free for every driver, for good.",
      summary: "Coaching and alerts for everyday driving.",
      features: [
        "AI safety coaching after every drive",
        "Speed camera and school zone alerts",
        "Weekly drive score",
        "Insurance cashback eligibility",
      ],
      cta: "Get Basic free",
      /** The WhatsApp message this plan's button opens: it names the plan. */
      whatsappMessage: "Hi Darb! I'd like the free app with the Basic plan.",
      highlighted: false,
    },
    {
      id: "plus",
      name: "Plus",
      price: 149,
      beta: "Download before 15 June: yours for life.",
      summary: "For commuters who want the full picture.",
      features: [
        "Everything in Basic",
        "Salik-aware route optimisation",
        "Full post-drive analytics with trip maps",
        "Fog and sandstorm advisories",
      ],
      cta: "Get Plus free",
      whatsappMessage: "Hi Darb! I'd like the Plus plan, free for beta drivers.",
      highlighted: true,
    },
    {
      id: "pro",
      name: "Pro",
      price: 299,
      beta: "From launch. Ask us now for a family or a team.",
      summary: "For families and anyone who drives for work.",
      features: [
        "Everything in Plus",
        "Up to 4 drivers on one account",
        "Priority cashback processing",
        "Exportable reports for insurers and employers",
      ],
      cta: "Choose Pro",
      whatsappMessage: "Hi Darb! I'd like the Pro plan.",
      highlighted: false,
    },
  ],
} as const;
