import { useLoaderData } from "@remix-run/react";
import { Countdown } from "~/components/Countdown";
import { StaticPart } from "~/components/StaticPart";
import { useSite, useUi } from "~/hooks/use-site";
import type { loader } from "~/routes/_index";

/**
 * The hero, the brand's dark band in both schemes: on a phone's first screen the headline, the
 * main action, the proof under it, and the countdown beside the app's screen, cropped to its
 * cards (docs/product.md; `hero-grid` in tailwind.css places the three blocks at each width).
 * Copy, actions, proof, the screen and the countdown's words are static parts; only the
 * countdown's cells and its sentence run in the browser.
 */
export function Hero() {
  const { countdown } = useLoaderData<typeof loader>();
  const site = useSite();
  const { counting } = useUi();
  return (
    <section id="hero" aria-labelledby="hero-heading" className="hero-band overflow-hidden">
      <div className="hero-grid">
        <div className="hero-words">
          <StaticPart name="hero-intro" className="contents" />
          <StaticPart name="hero-proof" className="contents" />
        </div>
        <div className="hero-countdown">
          <StaticPart name="countdown-label" className="contents" />
          <Countdown
            betaClosesAt={site.betaClosesAt}
            renderedAt={countdown.renderedAt}
            copy={countdown.copy}
            counting={counting}
          />
          <StaticPart name="countdown-notes" className="contents" />
        </div>
        <div className="hero-visual">
          <StaticPart name="phone-mockup" className="contents" />
        </div>
      </div>
    </section>
  );
}
