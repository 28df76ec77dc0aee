/**
 * The landing page's order, in one place (docs/product.md): the static parts the page renders
 * (which a client-side navigation to it must have), and the sections between the hero and the
 * closing call. The route (routes/_index.tsx) and the parts' renderers
 * (landing/static-parts.server.tsx) both read it; nothing here reaches the browser but names.
 */
import type { StaticPartName } from "~/components/static-parts";

/**
 * The parts the landing page itself renders (the root's come with every page).
 * tests/integration/boot.test.ts checks this list against the parts in the served page.
 */
export const LANDING_PARTS = [
  "hero-intro",
  "hero-proof",
  "countdown-label",
  "countdown-notes",
  "phone-mockup",
  "landing-body",
  "get-started-intro",
  "get-started-ctas",
  "sticky-action",
  "structured-data",
] as const satisfies readonly StaticPartName[];

/** The sections of the "landing-body" part, in the page's order. */
export const BODY_SECTIONS = [
  "how-it-works",
  "features",
  "safety-results",
  "plans",
  "testimonial",
  "trust-badges",
  "download",
  "faq",
] as const;
export type BodySection = (typeof BODY_SECTIONS)[number];
