import type { ReactNode } from "react";

/**
 * Each section's content height in rem, below 640 px, to 1024 px and above, the mean of both
 * languages measured at 360/412, 768 and 1280 px: what a section stands in at until it is laid
 * out. Close estimates keep the scrollbar and positions steady, and keep tools that measure
 * boxes before layout (Lighthouse's axe) from finding one section's text over the next one.
 * tests/e2e/landing.spec.ts fails when one is off by more than a third. Literal classes, so
 * Tailwind writes them into the stylesheet (no inline styles under the CSP).
 */
const ESTIMATES: Record<string, string> = {
  "how-it-works": "[--estimate:56rem] sm:[--estimate:28rem] lg:[--estimate:23rem]",
  features: "[--estimate:99rem] sm:[--estimate:63rem] lg:[--estimate:46rem]",
  "safety-results": "[--estimate:65rem] sm:[--estimate:39rem] lg:[--estimate:29rem]",
  plans: "[--estimate:110rem] sm:[--estimate:98rem] lg:[--estimate:44rem]",
  testimonial: "[--estimate:29rem] sm:[--estimate:23rem] lg:[--estimate:23rem]",
  trust: "[--estimate:35rem] sm:[--estimate:20rem] lg:[--estimate:13rem]",
  download: "[--estimate:47rem] sm:[--estimate:40rem] lg:[--estimate:25rem]",
  faq: "[--estimate:36rem] sm:[--estimate:30rem] lg:[--estimate:30rem]",
};

/**
 * A landing-page section below the first screen: an anchor target clear of the sticky header,
 * with its heading, laid out only as it nears the viewport (`render-when-near` in tailwind.css,
 * document/render-before-jumps.server.ts). Nothing in it may reach outside its box, which clips what
 * it paints: GetStarted's share menu would, so GetStarted is not a Section.
 */
export function Section({
  id,
  heading,
  intro,
  tone = "plain",
  children,
}: {
  id: string;
  heading: string;
  intro?: string;
  tone?: "plain" | "tinted" | "dark";
  children: ReactNode;
}) {
  const tones = {
    plain: "",
    tinted: "bg-slate-50 dark:bg-ink-900",
    dark: "bg-ink-900 text-white dark:bg-ink-800",
  };
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className={`render-when-near scroll-mt-16 py-16 sm:py-24 ${ESTIMATES[id] ?? ""} ${tones[tone]}`}
    >
      <div className="mx-auto max-w-6xl px-5">
        <h2
          id={`${id}-heading`}
          className="max-w-3xl text-3xl font-bold tracking-tight text-balance sm:text-4xl"
        >
          {heading}
        </h2>
        {intro ? (
          <p
            className={`mt-4 max-w-2xl text-lg ${tone === "dark" ? "text-slate-300" : "text-slate-700 dark:text-slate-300"}`}
          >
            {intro}
          </p>
        ) : null}
        <div className="mt-10">{children}</div>
      </div>
    </section>
  );
}
