import { useLocation, useMatches, useRouteLoaderData } from "@remix-run/react";
import { viewImageSrc } from "~/analytics/no-js-view";
import type { RouteHandle } from "~/shared/route-handle";

/**
 * Without JavaScript, the server counts the page's view from this image's request
 * (analytics/no-js-view.server.ts); a browser that runs scripts never parses what <noscript>
 * holds, and sends its own page_view instead. Not on a page whose route counted its view itself
 * (a lead's /thank-you). Tiny, last on the page, and never waited for.
 */
export function NoJsView() {
  const { pathname } = useLocation();
  const root = useRouteLoaderData<{ exp?: string }>("root");
  const counted = useMatches().some((match) =>
    (match.handle as RouteHandle | undefined)?.countsView?.(match.data),
  );
  if (counted) return null;
  return (
    <noscript>
      <img src={viewImageSrc(pathname, root?.exp)} alt="" width="1" height="1" />
    </noscript>
  );
}
