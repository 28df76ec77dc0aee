import { useLoaderData } from "@remix-run/react";
import { Countdown } from "~/components/Countdown";
import { StaticPart } from "~/components/StaticPart";
import { useSite, useUi } from "~/hooks/use-site";
import type { loader } from "~/routes/_index";

/**
 * The hero: copy, calls to action, social proof, the mockup and the countdown's words are static
 * parts (HeroIntro, HeroProof, PhoneMockup, CountdownWords); only the countdown's cells and its
 * sentence run in the browser.
 */
export function Hero() {
  const { countdown } = useLoaderData<typeof loader>();
  const site = useSite();
  const { counting } = useUi();
  return (
    <section
      id="hero"
      aria-labelledby="hero-heading"
      className="bg-gradient-to-b from-sand-100 to-white dark:from-ink-900 dark:to-ink-950"
    >
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-5 pt-10 pb-16 sm:pt-16 lg:grid-cols-[1fr_auto] lg:pb-24">
        <div className="flex min-w-0 flex-col gap-6">
          <StaticPart name="hero-intro" className="contents" />
          <div className="rounded-2xl border border-slate-200 bg-white/70 p-4 dark:border-ink-800 dark:bg-ink-900/70">
            <StaticPart name="countdown-label" className="contents" />
            <Countdown
              betaClosesAt={site.betaClosesAt}
              renderedAt={countdown.renderedAt}
              copy={countdown.copy}
              counting={counting}
            />
            <StaticPart name="countdown-notes" className="contents" />
          </div>
          <StaticPart name="hero-proof" className="contents" />
        </div>
        <StaticPart name="phone-mockup" className="contents" />
      </div>
    </section>
  );
}
