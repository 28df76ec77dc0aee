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
      <div className="mx-auto max-w-4xl rounded-3xl bg-ink-900 px-5 py-8 text-center sm:py-12 text-white sm:px-12 dark:bg-ink-800">
        <StaticPart name="get-started-intro" className="contents" />
        <div className="mt-6 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
          <StaticPart name="get-started-ctas" className="contents" />
          <ShareMenu
            siteUrl={site.siteUrl}
            placement="get-started"
            className="text-start text-slate-900 dark:text-white [&>summary]:flex [&>summary]:justify-center [&>summary]:border-white/30 [&>summary]:text-white [&>summary]:hover:bg-white/10"
          />
        </div>
      </div>
    </section>
  );
}
