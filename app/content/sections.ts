import { BellRing, BrainCircuit, ChartNoAxesCombined, Route, Wallet } from "lucide-react";

/** How it works, features and safety results: what the app does, specific to Dubai's roads. */
export const howItWorks = {
  heading: "How it works",
  intro: "Three steps, no hardware, no paperwork.",
  steps: [
    {
      title: "Get your invite on WhatsApp",
      body: "Message us and get your beta link for iPhone or Android within the hour, 8 am to 10 pm.",
    },
    {
      title: "Drive as you always do",
      body: "Put the phone in a mount. Darb starts by itself above 15 km/h and stops when you park.",
    },
    {
      title: "Get coached, get cashback",
      body: "After each drive, a score and one thing to work on. Keep it up and we send your insurer the report for cashback.",
    },
  ],
  /** The first step's body while the chat's automatic reply sends the link (config.instantReply). */
  firstStepInstant:
    "Message us and get your beta link for iPhone or Android in seconds, any time of day.",
} as const;

export const features = {
  heading: "Everything a Dubai driver needs, in one free app",
  intro:
    "Built around the roads you drive every day, from the morning crawl on Al Khail Road to an empty E11 at midnight.",
  items: [
    {
      icon: BrainCircuit,
      title: "AI-powered safety coaching",
      body: "Learns how you brake, corner and follow, then coaches the one habit that costs you most, like late braking into the Interchange 1 queue.",
    },
    {
      icon: BellRing,
      title: "Real-time alerts",
      body: "Spoken warnings before RTA speed cameras, school zones at pick-up time, stopped traffic ahead, fog and sandstorms.",
    },
    {
      icon: Route,
      title: "Route optimisation",
      body: "Weighs live traffic against Salik gates, so you know whether the toll is worth the minutes it saves.",
    },
    {
      icon: ChartNoAxesCombined,
      title: "Post-drive analytics",
      body: "Every trip on a map with its harsh brakes, speeding and phone pick-ups, plus your weekly trend.",
    },
    {
      icon: Wallet,
      title: "Up to 25% insurance cashback",
      body: "Safe driving earns up to 25% of your premium back through partner insurers; Darb prepares the driving report they ask for.",
    },
  ],
} as const;

export const safetyResults = {
  heading: "What a week of coaching looks like",
  intro: "An example report from the app, for a 35‑minute commute from Al Barsha to DIFC.",
  exampleLabel: "Example report",
  week: "Week 3 of coaching",
  metrics: [
    { label: "Drive score", before: "71", after: "88", note: "out of 100" },
    { label: "Harsh braking", before: "9", after: "3", note: "per 100 km" },
    { label: "Time over the limit", before: "6%", after: "1%", note: "of driving time" },
    { label: "Phone pick-ups", before: "4", after: "0", note: "per drive" },
  ],
  beforeLabel: "Week 1",
  afterLabel: "Week 3",
  takeaway:
    "The coaching tip that week: leave a three-second gap on Sheikh Zayed Road; most harsh braking came from following too close between Interchanges 2 and 4.",
  /** The drawn report beside these figures: what it adds to them, not the figures again. */
  screenAlt:
    "The same week in the app's weekly report, with an example cashback estimate of AED 86 this year.",
} as const;
