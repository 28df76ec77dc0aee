/** App plans (spec §1: free, 149 AED and 299 AED; the period is not shown unless set here). */
export type PlanPeriod = "month" | "year" | null;

export const plans = {
  heading: "App plans",
  intro: "Start free. Upgrade only if the extra coaching pays for itself.",
  currency: "AED",
  /** Shown after paid prices ("/ month") when set; the spec shows no period. */
  period: null as PlanPeriod,
  periodLabel: { month: "month", year: "year" },
  free: "Free",
  popular: "Most popular",
  items: [
    {
      id: "basic",
      name: "Basic",
      price: 0,
      summary: "Coaching and alerts for everyday driving.",
      features: [
        "AI safety coaching after every drive",
        "Speed camera and school zone alerts",
        "Weekly drive score",
        "Insurance cashback eligibility",
      ],
      cta: "Get Basic free",
      highlighted: false,
    },
    {
      id: "plus",
      name: "Plus",
      price: 149,
      summary: "For daily commuters who want the full picture.",
      features: [
        "Everything in Basic",
        "Salik-aware route optimisation",
        "Full post-drive analytics with trip maps",
        "Fog and sandstorm advisories",
      ],
      cta: "Choose Plus",
      highlighted: true,
    },
    {
      id: "pro",
      name: "Pro",
      price: 299,
      summary: "For families and anyone who drives for work.",
      features: [
        "Everything in Plus",
        "Up to 4 drivers on one account",
        "Priority cashback processing",
        "Exportable reports for insurers and employers",
      ],
      cta: "Choose Pro",
      highlighted: false,
    },
  ],
} as const;
