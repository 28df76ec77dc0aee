import { useOutletContext } from "@remix-run/react";
import { StaticPart } from "~/components/StaticPart";
import { useSite } from "~/hooks/use-site";
import type { RootOutletContext } from "~/root";

/** The closing call: the copy and two contact routes are static parts; Share runs in the browser. */
export function GetStarted() {
  const site = useSite();
  // The root's share menu, the header's: its code ships once (root.tsx, RootOutletContext).
  const { ShareMenu } = useOutletContext<RootOutletContext>();
  return (
    <section
      id="get-started"
      aria-labelledby="get-started-heading"
      className="scroll-mt-16 px-5 py-10 sm:py-24"
    >
      <div className="closing-card">
        <StaticPart name="get-started-intro" className="contents" />
        <div className="mt-6 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
          <StaticPart name="get-started-ctas" className="contents" />
          <ShareMenu siteUrl={site.siteUrl} placement="get-started" className="share-on-dark" />
        </div>
      </div>
    </section>
  );
}
