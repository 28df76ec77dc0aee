import { useNavigate } from "@remix-run/react";
import { type MutableRefObject, useEffect } from "react";
import {
  DISMISS,
  DISMISSIBLE,
  languageHref,
  leadHrefForVisit,
  leavesPage,
  linkEvent,
  REMEMBERS_LANGUAGE,
  routedPath,
} from "~/analytics/link-clicks";
import { track } from "~/analytics/queue.client";
import { currentVisitSession, type Visit } from "~/hooks/use-visit";
import { rememberLanguageChoice } from "~/shared/language-cookie";

/**
 * One listener for every link on the page: reports the clicks links ask to report, corrects
 * lead links to the visit's campaign, session and variant, and sends static page links through the router. It runs
 * after React's own handlers, so a router <Link> has already claimed its click. It also works
 * the language offer's two controls, which sit in a static part (components/static-parts.ts).
 */
export function useLinkClicks(visit: MutableRefObject<Visit>): void {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const target = event.target as Element | null;
      if (target?.closest?.(`[${REMEMBERS_LANGUAGE}]`)) rememberLanguageChoice();
      const dismiss = target?.closest?.(`button[${DISMISS}]`);
      const dismissible = dismiss?.closest(`[${DISMISSIBLE}]`);
      if (dismissible instanceof HTMLElement) dismissible.hidden = true;
      const link = target?.closest?.("a[href]");
      if (!(link instanceof HTMLAnchorElement)) return;
      const { origin, pathname } = window.location;
      const language = link.hasAttribute(REMEMBERS_LANGUAGE) && languageHref(link, window.location);
      if (language) link.setAttribute("href", language);
      const reported = linkEvent(link, pathname);
      if (reported) {
        const href = link.getAttribute("href") ?? "";
        // The session as of this click: after 30 idle minutes a new one, which the lead joins.
        const session = currentVisitSession(visit.current);
        // The visit's campaign, fbclid's first sight and variant, on the page clicked from.
        const corrected = leadHrefForVisit(href, { ...visit.current, session, pathname }, origin);
        if (corrected !== href) link.setAttribute("href", corrected);
        track(reported.name, reported.params, leavesPage(reported));
      }
      const path = routedPath(event, link, origin, pathname);
      if (path !== null) {
        event.preventDefault();
        navigate(path);
      }
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate, visit]);
}
