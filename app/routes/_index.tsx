import { json, type LoaderFunctionArgs } from "@remix-run/node";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { GetStarted } from "~/components/GetStarted";
import { Hero } from "~/components/Hero";
import { requireStaticParts, StaticPart } from "~/components/StaticPart";
import { copyFor } from "~/content/copy.server";
import { useStickyAction } from "~/hooks/use-sticky-action";
import { LANDING_PARTS } from "~/landing/sections";
import { headFor } from "~/pages/head.server";
import { localeOfPath } from "~/shared/locale";
import { metaFromLoader } from "~/shared/route-meta";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const locale = localeOfPath(new URL(request.url).pathname);
  const copy = copyFor(locale);
  return json({
    head: headFor(request, context, "home"),
    // The countdown is the one part of the page that runs in the browser: its words come along
    // (the words around it are static parts: CountdownWords.tsx).
    countdown: {
      copy: copy.ui.countdown,
      // The server renders the time left, and hydration must compute the same cells: from this
      // moment, not the browser's (a cached page carries the moment it was rendered).
      renderedAt: Date.now(),
    },
  });
}

/** A client-side navigation here needs the static parts this tab has already shown. */
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  await requireStaticParts(request, LANDING_PARTS);
  return serverLoader<typeof loader>();
}

export const meta = metaFromLoader;

/**
 * The landing page: the hero, the sections (one static part, in landing/sections.ts's order) and
 * the closing call; the header and footer come from the root.
 */
export default function Index() {
  useStickyAction();
  return (
    <>
      <StaticPart name="sticky-action" />
      <Hero />
      <StaticPart name="landing-body" />
      <GetStarted />
      <StaticPart name="structured-data" className="hidden" />
    </>
  );
}
