// @vitest-environment happy-dom
import { act, cleanup, render } from "@testing-library/react";
import { MemoryRouter, type NavigateFunction, useNavigate } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setAnalyticsContext, track } from "~/analytics/queue.client";
import { currentVisitSession, useVisit, type Visit as VisitState } from "~/hooks/use-visit";

vi.mock("~/analytics/queue.client", () => ({ setAnalyticsContext: vi.fn(), track: vi.fn() }));

const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);

let visit: { readonly current: VisitState } | null = null;
let navigate: NavigateFunction | null = null;
function Visit() {
  visit = useVisit("en");
  navigate = useNavigate();
  return null;
}

function visitAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Visit />
    </MemoryRouter>,
  );
}

/** A route change in the same page, as a router link makes it. */
function goTo(path: string) {
  act(() => navigate?.(path));
}

/** The events sent, by name, in order. */
const sent = () => vi.mocked(track).mock.calls.map(([name]) => name);
const pageViews = () =>
  vi
    .mocked(track)
    .mock.calls.filter(([name]) => name === "page_view")
    .map(([, params]) => params);
const at = (path: string) => `${window.location.origin}${path}`;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  sessionStorage.clear();
  vi.mocked(track).mockClear();
  vi.mocked(setAnalyticsContext).mockClear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("useVisit", () => {
  it("sends one page_view with the URL's campaign, and keeps that campaign for the tab", () => {
    visitAt("/?source=whatsapp&utm_campaign=Ramadan%20Promo");
    expect(pageViews()).toEqual([
      {
        page_location: at("/?source=whatsapp&utm_campaign=Ramadan%20Promo"),
        page_referrer: undefined,
        page_title: "",
      },
    ]);
    expect(setAnalyticsContext).toHaveBeenCalledTimes(1);
    expect(setAnalyticsContext).toHaveBeenCalledWith({
      source: "whatsapp",
      medium: undefined,
      campaign: "Ramadan Promo",
      language: "en",
    });
    // Kept as the query a link would carry.
    expect(sessionStorage.getItem("darb:campaign")).toBe(
      "?source=whatsapp&utm_campaign=Ramadan+Promo",
    );
    // What the click listener reads.
    expect(visit?.current).toEqual({
      campaign: { source: "whatsapp", utm_campaign: "Ramadan Promo" },
      session: String(Math.floor(NOW / 1000)),
      // No experiment's variant shown.
      variant: "",
    });
  });

  it("reads the tab's campaign before its first page_view when the URL has none", () => {
    visitAt("/?source=instagram&utm_medium=Paid%20Social");
    cleanup();
    vi.mocked(setAnalyticsContext).mockClear();
    visitAt("/share");
    // The context the page_view goes out with, set in the same effect just before it.
    expect(setAnalyticsContext).toHaveBeenCalledTimes(1);
    expect(setAnalyticsContext).toHaveBeenCalledWith({
      source: "instagram",
      medium: "Paid Social",
      campaign: undefined,
      language: "en",
    });
    expect(vi.mocked(track).mock.calls.at(-1)).toEqual([
      "page_view",
      expect.objectContaining({ page_location: at("/share") }),
    ]);
    expect(visit?.current.campaign).toEqual({ source: "instagram", utm_medium: "Paid Social" });
  });

  it("takes a newly tagged URL's campaign over the tab's", () => {
    visitAt("/?source=instagram&utm_campaign=eid");
    cleanup();
    visitAt("/?utm_source=TikTok");
    expect(visit?.current.campaign).toEqual({ utm_source: "TikTok" });
    expect(sessionStorage.getItem("darb:campaign")).toBe("?utm_source=TikTok");
  });

  it("gives a visit with no campaign anywhere no campaign words, and never re-renders for it", () => {
    let renders = 0;
    function Counted() {
      renders++;
      return <Visit />;
    }
    render(
      <MemoryRouter initialEntries={["/"]}>
        <Counted />
      </MemoryRouter>,
    );
    // No campaign words on its events: "direct" is not a source GA4 should be told of.
    expect(setAnalyticsContext).toHaveBeenCalledWith({
      source: undefined,
      medium: undefined,
      campaign: undefined,
      language: "en",
    });
    expect(renders).toBe(1);
    expect(visit?.current.campaign).toEqual({});
    expect(sessionStorage.getItem("darb:campaign")).toBeNull();
  });

  it("reads a stored campaign as it would a URL, trusting nothing in it", () => {
    sessionStorage.setItem("darb:campaign", '["source","instagram"]');
    visitAt("/");
    expect(visit?.current.campaign).toEqual({});
    sessionStorage.setItem("darb:campaign", "__proto__=x&returnUrl=//evil&utm_term=%00a%E2%80%AEb");
    cleanup();
    visitAt("/share");
    expect(visit?.current.campaign).toEqual({ utm_term: "ab" });
    sessionStorage.setItem("darb:campaign", '{"source":42,"__proto__":{"source":"x"}}');
    cleanup();
    visitAt("/share");
    expect(visit?.current.campaign).toEqual({});
    expect(setAnalyticsContext).toHaveBeenLastCalledWith(
      expect.objectContaining({ source: undefined }),
    );
  });
});

describe("campaign_details", () => {
  it("goes out before the page_view of a tagged URL, in GA4's words", () => {
    visitAt(
      "/?source=ig&utm_source=Facebook&utm_medium=cpc&utm_campaign=Ramadan%20Promo%202026&utm_term=lessons&utm_content=%7B%7Bad.name%7D%7D&utm_id=42&fbclid=IwAR",
    );
    expect(sent()).toEqual(["campaign_details", "page_view"]);
    expect(track).toHaveBeenNthCalledWith(1, "campaign_details", {
      source: "Facebook",
      medium: "cpc",
      campaign: "Ramadan Promo 2026",
      term: "lessons",
      content: "{{ad.name}}",
      campaign_id: "42",
    });
  });

  it("is not sent again for the session's next pages, in this page or the next", () => {
    visitAt("/?source=instagram");
    expect(sent()).toEqual(["campaign_details", "page_view"]);
    goTo("/share");
    goTo("/?source=instagram");
    expect(sent()).toEqual(["campaign_details", "page_view", "page_view", "page_view"]);
    cleanup();
    vi.setSystemTime(NOW + 60_000);
    visitAt("/sitemap");
    expect(sent()).toEqual([
      "campaign_details",
      "page_view",
      "page_view",
      "page_view",
      "page_view",
    ]);
  });

  it("is sent again for another campaign, and for a new session", () => {
    visitAt("/?source=instagram");
    goTo("/?source=tiktok");
    expect(sent()).toEqual(["campaign_details", "page_view", "campaign_details", "page_view"]);
    expect(track).toHaveBeenNthCalledWith(3, "campaign_details", { source: "tiktok" });
    cleanup();
    vi.mocked(track).mockClear();
    // 31 minutes without an event: GA4 would start a new session, and so does the tab.
    vi.setSystemTime(NOW + 31 * 60_000);
    visitAt("/share");
    expect(sent()).toEqual(["campaign_details", "page_view"]);
    expect(track).toHaveBeenNthCalledWith(1, "campaign_details", { source: "tiktok" });
    expect(visit?.current.session).toBe(String(Math.floor((NOW + 31 * 60_000) / 1000)));
  });

  it.each([
    "/",
    "/?source=direct",
    "/?source=Direct",
    "/?ref=abc&platform=whatsapp&cta=email",
    "/?gclid=Cj0KCQ",
  ])("is not sent for a visit with no campaign words (%s)", (path) => {
    visitAt(path);
    expect(sent()).toEqual(["page_view"]);
    goTo("/share");
    expect(sent()).toEqual(["page_view", "page_view"]);
  });
});

describe("page_view", () => {
  it("leaves /thank-you's view to the server, which counted it with the lead", () => {
    // With or without the session on the link: the page may hand off before this runs.
    visitAt("/thank-you?cta=whatsapp&source=instagram");
    expect(pageViews()).toEqual([]);
    cleanup();
    vi.mocked(track).mockClear();
    visitAt("/ar/thank-you?cta=email");
    expect(pageViews()).toEqual([]);
    cleanup();
    visitAt("/thank-you?cta=whatsapp&source=instagram&sid=1772366400");
    expect(pageViews()).toEqual([]);
    cleanup();
    vi.mocked(track).mockClear();
    // No CTA, no lead: the page is counted here.
    visitAt("/thank-you");
    expect(pageViews()).toHaveLength(1);
  });

  it("gives GA4 the page's absolute address, and the page before it as the referrer", () => {
    visitAt("/share?platform=whatsapp");
    goTo("/ar/sitemap");
    const [first, second] = pageViews();
    expect(first?.page_location).toBe(at("/share?platform=whatsapp"));
    expect(new URL(String(first?.page_location)).origin).toBe(window.location.origin);
    expect(first?.page_location).toMatch(/^https?:\/\/[^/]+\/share\?platform=whatsapp$/);
    expect(second).toEqual({
      page_location: at("/ar/sitemap"),
      page_referrer: at("/share?platform=whatsapp"),
      page_title: "",
    });
  });

  it("takes the other site's address as the first page's referrer", () => {
    const referrer = vi
      .spyOn(document, "referrer", "get")
      .mockReturnValue("https://l.instagram.com/");
    visitAt("/");
    goTo("/share");
    expect(pageViews().map((params) => params?.page_referrer)).toEqual([
      "https://l.instagram.com/",
      at("/"),
    ]);
    referrer.mockRestore();
  });

  it("carries the visit's GA4 session for the click listener, kept for the tab", () => {
    visitAt("/");
    const session = String(Math.floor(NOW / 1000));
    expect(visit?.current.session).toBe(session);
    expect(JSON.parse(sessionStorage.getItem("darb:session") ?? "null")).toMatchObject({
      id: session,
    });
    cleanup();
    vi.setSystemTime(NOW + 10 * 60_000);
    visitAt("/share");
    expect(visit?.current.session).toBe(session);
  });
});

describe("currentVisitSession", () => {
  it("at a click after 30 idle minutes, begins a new session and tells GA4 its campaign first", () => {
    visitAt("/?utm_source=instagram&utm_campaign=Eid");
    const first = visit?.current.session;
    vi.mocked(track).mockClear();
    vi.setSystemTime(NOW + 31 * 60_000);
    const current = visit ? currentVisitSession(visit.current) : "";
    expect(current).not.toBe(first);
    expect(current).toBe(String(Math.floor((NOW + 31 * 60_000) / 1000)));
    // The lead link gets the live session, and that session has its campaign_details.
    expect(visit?.current.session).toBe(current);
    expect(sent()).toEqual(["campaign_details"]);
  });

  it("within the session, changes nothing and sends nothing", () => {
    visitAt("/?utm_source=instagram");
    const first = visit?.current.session;
    vi.mocked(track).mockClear();
    vi.setSystemTime(NOW + 10 * 60_000);
    expect(visit ? currentVisitSession(visit.current) : "").toBe(first);
    expect(sent()).toEqual([]);
  });
});

describe("the experiment's variant", () => {
  /** A page whose root's data says which variant it shows (none: a page the test does not change). */
  function visitShowing(path: string, shown?: string) {
    function Page() {
      visit = useVisit("en", undefined, shown);
      return null;
    }
    return render(
      <MemoryRouter initialEntries={[path]}>
        <Page />
      </MemoryRouter>,
    );
  }
  const impressions = () =>
    vi
      .mocked(track)
      .mock.calls.filter(([name]) => name === "experience_impression")
      .map(([, params]) => params);

  it("is told to GA4 in the browser's own batch once per session, and kept for the visit", () => {
    visitShowing("/", "DRB-hero_headline-cashback_first");
    expect(sent()).toEqual(["page_view", "experience_impression"]);
    expect(impressions()).toEqual([{ exp_variant_string: "DRB-hero_headline-cashback_first" }]);
    expect(visit?.current.variant).toBe("DRB-hero_headline-cashback_first");
    // A reload, and /ar, in the same session: no second impression.
    cleanup();
    visitShowing("/", "DRB-hero_headline-cashback_first");
    visitShowing("/ar", "DRB-hero_headline-cashback_first");
    expect(impressions()).toHaveLength(1);
    // The next session has its own.
    cleanup();
    vi.setSystemTime(NOW + 31 * 60_000);
    visitShowing("/", "DRB-hero_headline-cashback_first");
    expect(impressions()).toHaveLength(2);
  });

  it("goes on with the visit to a page that shows none, so a tap there carries it", () => {
    visitShowing("/", "DRB-hero_headline-control");
    cleanup();
    vi.mocked(track).mockClear();
    visitShowing("/share");
    expect(visit?.current.variant).toBe("DRB-hero_headline-control");
    expect(impressions()).toEqual([]);
  });

  it("is none for a visit that landed on a page the test does not change", () => {
    visitShowing("/share");
    expect(visit?.current.variant).toBe("");
    expect(impressions()).toEqual([]);
  });
});
