import { useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { track } from "~/lib/analytics.client";
import type { Attribution } from "~/lib/attribution";
import { leavesPage, linkEvent, routedPath, withVisitSource } from "~/lib/link-clicks";

/**
 * One listener for every link on the page: reports the clicks links ask to report, corrects
 * lead links to the visit's source, and sends static page links through the router. It runs
 * after React's own handlers, so a router <Link> has already claimed its click.
 */
export function useLinkClicks(attribution: Attribution): void {
  const navigate = useNavigate();
  const source = useRef(attribution.source);
  source.current = attribution.source;
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (!(link instanceof HTMLAnchorElement)) return;
      const origin = window.location.origin;
      const reported = linkEvent(link);
      if (reported) {
        const href = link.getAttribute("href") ?? "";
        const corrected = withVisitSource(href, source.current, origin);
        if (corrected !== href) link.setAttribute("href", corrected);
        track(reported.name, reported.params, leavesPage(reported));
      }
      const path = routedPath(event, link, origin);
      if (path !== null) {
        event.preventDefault();
        navigate(path);
      }
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
