import { Globe, Lock, ShieldCheck, Smartphone } from "lucide-react";

/** Testimonial and trust badges. */
export const testimonial = {
  heading: "From a beta driver",
  quote:
    "I drive Emirates Road to Dubai Silicon Oasis every day. After two weeks Darb showed me I braked hard at the same three exits. Fixing that took my score from 68 to 90, and my renewal came with cashback for the first time.",
  author: "Beta driver since March",
  detail: "Commutes Sharjah to Dubai Silicon Oasis",
} as const;

export const trust = {
  heading: "Why drivers trust Darb",
  items: [
    {
      icon: Lock,
      title: "Your trips stay yours",
      body: "Encrypted, never sold, deleted on request.",
    },
    { icon: ShieldCheck, title: "No tricks", body: "Basic is free for good, with no card needed." },
    { icon: Smartphone, title: "iPhone and Android", body: "iOS 16 and Android 10 or newer." },
    {
      icon: Globe,
      title: "English and العربية",
      body: "The app speaks both, in the UI and in alerts.",
    },
  ],
} as const;
