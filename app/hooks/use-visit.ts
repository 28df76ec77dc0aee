import { useLocation } from "@remix-run/react";
import { type MutableRefObject, useEffect, useRef } from "react";
import { setAnalyticsContext, track } from "~/analytics/queue.client";
import { noteVisitCampaignSent, visitSession } from "~/analytics/session";
import {
  type Campaign,
  campaignDetails,
  campaignFrom,
  campaignQuery,
  isTagged,
} from "~/shared/campaign";
import { FBCLID_AT_PARAM, isCtaType } from "~/shared/cta";
import { basePath, type Locale } from "~/shared/locale";

const STORAGE_KEY = "darb:campaign";
/** The variant this tab was last shown, and the session its impression went on: "<token> <id>". */
const VARIANT_KEY = "darb:exp";

type VisitCampaign = { campaign: Campaign; fbclidAt?: number };

/** A time as the server wrote it on the page (ms); the server checks it again on the lead. */
function timeOrNone(raw: string | null): number | undefined {
  return raw !== null && /^[0-9]{13}$/.test(raw) ? Number(raw) : undefined;
}

/**
 * From this URL when it is tagged, else what this tab arrived with; the URL's is kept, as the
 * query it would be on a link, and read back as a URL's is, trusting nothing stored. With an
 * fbclid, also when it was first seen: the time this tab first saw that id, else the one the
 * server gave the page (`seenAt`: its landing request's), else now.
 */
function visitCampaign(search: string, seenAt?: number): VisitCampaign {
  const fromUrl = campaignFrom(new URLSearchParams(search));
  try {
    const stored = new URLSearchParams(sessionStorage.getItem(STORAGE_KEY) ?? "");
    const before = campaignFrom(stored);
    const storedAt = timeOrNone(stored.get(FBCLID_AT_PARAM));
    if (!isTagged(fromUrl))
      return { campaign: before, fbclidAt: before.fbclid ? storedAt : undefined };
    const fbclidAt = fromUrl.fbclid
      ? ((before.fbclid === fromUrl.fbclid ? storedAt : undefined) ?? seenAt ?? Date.now())
      : undefined;
    const query = campaignQuery(fromUrl);
    const at = fbclidAt === undefined ? "" : `&${FBCLID_AT_PARAM}=${fbclidAt}`;
    sessionStorage.setItem(STORAGE_KEY, `${query}${at}`);
    return { campaign: fromUrl, fbclidAt };
  } catch {
    // Storage blocked (privacy mode, a sandboxed frame): the URL's campaign is all there is.
    return { campaign: fromUrl, fbclidAt: fromUrl.fbclid ? (seenAt ?? Date.now()) : undefined };
  }
}

/**
 * The experiment's variant this visit was shown (`DRB-<experiment>-<variant>`): this page's, else the
 * last one this tab was shown, so a tap on /share after the variant on / still counts for it.
 * A page that shows one tells GA4 once per session (`experience_impression`, on the browser's
 * own session, where its page_view is); the server counts the view in its ledger. What is
 * stored is carried as it is: the server checks it at the tap (leads/variant-credit.server.ts).
 */
function visitVariant(shown: string | undefined, session: string): string | undefined {
  const mark = `${shown} ${session}`;
  let kept = "";
  try {
    kept = sessionStorage.getItem(VARIANT_KEY) ?? "";
    if (shown) sessionStorage.setItem(VARIANT_KEY, mark);
  } catch {
    // Storage blocked: this page's variant is all there is.
  }
  if (!shown) return kept.split(" ")[0];
  // EXPOSURE_EVENT (shared/experiment.ts), written out: the bundle carries no more of it.
  // The token is the variant's exp_variant_string.
  if (kept !== mark) track("experience_impression", { exp_variant_string: shown });
  return shown;
}

export type Visit = {
  campaign: Campaign;
  session: string;
  /** When the campaign's fbclid was first seen (ms), carried on lead links for Meta's fbc. */
  fbclidAt?: number;
  /** The experiment's variant this visit was shown, carried on lead links (`exp`); "": none. */
  variant?: string;
};

/**
 * The visit's session now (a new one after 30 idle minutes), announced to GA4 with
 * campaign_details first when it has not had this campaign's yet; the visit is updated to it.
 * Called for each page and again at a lead link's click, so the lead joins a live session.
 */
export function currentVisitSession(visit: Visit): string {
  const session = visitSession();
  const details = campaignDetails(visit.campaign);
  const tags = campaignQuery(visit.campaign);
  if (Object.keys(details).length > 0 && session.details !== tags) {
    track("campaign_details", details);
    noteVisitCampaignSent(tags);
  }
  visit.session = session.id;
  return session.id;
}

/**
 * The visit: its campaign (sessionStorage, no cookies; the server renders links from the URL
 * alone, so they work without JavaScript), its GA4 session (analytics/session.ts), and for the
 * first page and every route change a page_view, preceded by campaign_details when the session
 * has not yet had this campaign's (GA4 gives Measurement Protocol sessions no campaign
 * otherwise: docs/analytics.md). /sitemap.xml is a resource route: it never renders.
 *
 * The visit is kept in a ref for the click listener to read: nothing on screen shows it, and
 * as React state it re-rendered the whole page once more right after hydration.
 */
export function useVisit(
  language: Locale,
  fbclidSeenAt?: number,
  /** The experiment's variant this page shows (the root's data), if any. */
  shown?: string,
): MutableRefObject<Visit> {
  const { pathname, search } = useLocation();
  const visit = useRef<Visit>({ campaign: {}, session: "" });
  // The page before this one, for page_referrer: another site's (document.referrer) at first.
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const { campaign, fbclidAt } = visitCampaign(search, fbclidSeenAt);
    // The campaign's own words on every event, as campaign_details names them; none untagged.
    const { source, medium, campaign: name } = campaignDetails(campaign);
    setAnalyticsContext({ source, medium, campaign: name, language });
    visit.current = { campaign, session: "", ...(fbclidAt !== undefined ? { fbclidAt } : {}) };
    currentVisitSession(visit.current);
    const location = `${window.location.origin}${pathname}${search}`;
    // A /thank-you reached by a lead link had its page_view counted by the server: the page
    // may hand off before this runs (routes/thank-you.tsx).
    const countedByServer =
      basePath(pathname) === "/thank-you" && isCtaType(new URLSearchParams(search).get("cta"));
    if (!countedByServer)
      track("page_view", {
        page_location: location,
        page_referrer: previous.current ?? (document.referrer || undefined),
        page_title: document.title,
      });
    previous.current = location;
    visit.current.variant = visitVariant(shown, visit.current.session);
  }, [pathname, search, language, fbclidSeenAt, shown]);
  return visit;
}
