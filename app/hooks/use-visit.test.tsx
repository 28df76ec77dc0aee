// @vitest-environment happy-dom
import { cleanup, render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setAnalyticsContext, track } from "~/browser/analytics.client";
import { useVisit } from "~/hooks/use-visit";
import type { Attribution } from "~/shared/attribution";

vi.mock("~/browser/analytics.client", () => ({ setAnalyticsContext: vi.fn(), track: vi.fn() }));

let visit: { readonly current: Attribution } | null = null;
function Visit() {
  visit = useVisit("en");
  return null;
}

function visitAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Visit />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  sessionStorage.clear();
  vi.mocked(track).mockClear();
  vi.mocked(setAnalyticsContext).mockClear();
});
afterEach(cleanup);

describe("useVisit", () => {
  it("sends one page_view with the URL's source, and keeps that source for the tab", () => {
    visitAt("/?source=whatsapp&utm_campaign=launch");
    expect(track).toHaveBeenCalledTimes(1);
    expect(track).toHaveBeenCalledWith("page_view", {
      page_location: "/?source=whatsapp&utm_campaign=launch",
      page_title: "",
    });
    expect(setAnalyticsContext).toHaveBeenCalledWith(
      expect.objectContaining({ source: "whatsapp", campaign: "launch", language: "en" }),
    );
    expect(sessionStorage.getItem("darb:attribution")).toContain("whatsapp");
    // What the click listener reads.
    expect(visit?.current.source).toBe("whatsapp");
  });

  it("reads the tab's source before its first page_view when the URL has none", () => {
    visitAt("/?source=instagram");
    cleanup();
    vi.mocked(setAnalyticsContext).mockClear();
    visitAt("/share");
    // The context the page_view goes out with, set in the same effect just before it.
    expect(setAnalyticsContext).toHaveBeenCalledTimes(1);
    expect(setAnalyticsContext).toHaveBeenCalledWith(
      expect.objectContaining({ source: "instagram" }),
    );
    expect(vi.mocked(track).mock.calls.at(-1)?.[1]).toMatchObject({ page_location: "/share" });
    expect(visit?.current.source).toBe("instagram");
  });

  it("counts a visit with no source anywhere as direct, and never re-renders for it", () => {
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
    expect(setAnalyticsContext).toHaveBeenCalledWith(expect.objectContaining({ source: "direct" }));
    expect(renders).toBe(1);
    expect(visit?.current.source).toBe("direct");
  });
});
