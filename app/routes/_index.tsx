import { json, type LoaderFunctionArgs } from "@remix-run/node";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { GetStarted } from "~/components/GetStarted";
import { Hero } from "~/components/Hero";
import { requireStaticParts, StaticPart } from "~/components/StaticPart";
import { copyFor } from "~/content/copy.server";
import type { StaticPartName } from "~/document/static-parts";
import { useStickyAction } from "~/hooks/use-sticky-action";
import { headFor } from "~/server/head.server";
import { localeOfPath } from "~/shared/locale";
import { metaFromLoader } from "~/shared/route-meta";

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = localeOfPath(new URL(request.url).pathname);
  const copy = copyFor(locale);
  return json({
    head: headFor(request, "home"),
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

/**
 * The parts the landing page itself renders (the root's come with every page). A client-side
 * navigation here needs all of them; tests/integration/boot.test.ts checks this list against
 * the parts in the served page, so a part added there cannot be forgotten here.
 */
export const LANDING_PARTS: readonly StaticPartName[] = [
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
];

/** A client-side navigation here needs the static parts this tab has already shown. */
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  await requireStaticParts(request, LANDING_PARTS);
  return serverLoader<typeof loader>();
}

export const meta = metaFromLoader;

/**
 * docs/product.md: the landing page's sections, in this order (header and footer come from the root).
 * Everything between the hero and the closing call is one static part (components/static-parts.server.tsx).
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
