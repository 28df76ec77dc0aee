import { useLoaderData } from "@remix-run/react";
import { Countdown } from "~/components/Countdown";
import { StaticPart } from "~/components/StaticPart";
import { useSite, useUi } from "~/hooks/use-site";
import type { loader } from "~/routes/_index";

/**
 * The hero, the brand's dark band in both schemes: on a phone's first screen the headline, the
 * main action, the proof under it, the countdown and the top of the app's screen (docs/product.md).
 * Copy, actions, proof, the screen and the countdown's words are static parts; only the
 * countdown's cells and its sentence run in the browser.
 */
export function Hero() {
  const { countdown } = useLoaderData<typeof loader>();
  const site = useSite();
  const { counting } = useUi();
  return (
    <section id="hero" aria-labelledby="hero-heading" className="hero-band overflow-hidden">
      <div className="mx-auto grid max-w-6xl items-center gap-8 px-5 pt-6 sm:pt-14 lg:grid-cols-[1fr_auto] lg:gap-12 lg:pb-20">
        <div className="flex min-w-0 flex-col gap-4 sm:gap-6">
          <StaticPart name="hero-intro" className="contents" />
          <StaticPart name="hero-proof" className="contents" />
          <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-t border-white/10 pt-4">
            <StaticPart name="countdown-label" className="contents" />
            <Countdown
              betaClosesAt={site.betaClosesAt}
              renderedAt={countdown.renderedAt}
              copy={countdown.copy}
              counting={counting}
            />
            <StaticPart name="countdown-notes" className="contents" />
          </div>
        </div>
        {/* On a phone the screen rises from the band's lower edge: its top is the first
            screen's last view, the rest is cut off by the band (its full height shows from lg). */}
        <div className="-mb-px h-52 overflow-hidden sm:h-96 lg:h-auto">
          <StaticPart name="phone-mockup" className="contents" />
        </div>
      </div>
    </section>
  );
}
