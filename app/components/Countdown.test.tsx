// @vitest-environment happy-dom
import { act, cleanup, render } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Countdown } from "~/components/Countdown";
import { ui as arUi } from "~/content/ar/ui";
import { ui } from "~/content/ui";
import { BETA_START_GLOBAL } from "~/shared/countdown";
import { countingFor } from "~/shared/plural.server";

const LOADED = Date.UTC(2026, 5, 1, 8, 30, 0);
const SECOND = 1000;
const counting = countingFor("en-AE");

beforeEach(() => {
  vi.useFakeTimers({ now: LOADED });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  delete (window as unknown as Record<string, unknown>)[BETA_START_GLOBAL];
});

/** What the page's start script leaves: when this browser first loaded the page. */
const setStart = (start: number) => {
  (window as unknown as Record<string, unknown>)[BETA_START_GLOBAL] = start;
};

function cells(container: HTMLElement) {
  const value = (unit: string) => container.querySelector(`[data-unit="${unit}"]`)?.textContent;
  return [value("days"), value("hours"), value("mins"), value("secs")];
}

const spoken = (container: HTMLElement) => container.querySelector(".sr-only")?.textContent;

const iso = (ms: number) => new Date(ms).toISOString();

/** The props the hero passes: the page was rendered at LOADED unless a test says otherwise. */
function props(betaClosesAt: string | null, renderedAt = LOADED) {
  return { betaClosesAt, renderedAt, copy: ui.countdown, counting };
}

function labels(container: HTMLElement) {
  const label = (unit: string) =>
    container.querySelector(`[data-unit-label="${unit}"]`)?.textContent;
  return [label("days"), label("hours"), label("mins"), label("secs")];
}

describe("Countdown", () => {
  it("renders the time left on the server: two days for a countdown from page load", () => {
    const host = document.createElement("div");
    host.innerHTML = renderToString(<Countdown {...props(null)} />);
    expect(cells(host)).toEqual(["02", "00", "00", "00"]);
    expect(labels(host)).toEqual(["days", "hours", "mins", "secs"]);
    expect(spoken(host)).toBe("Beta closes in 2 days");
  });

  it("renders a fixed close as seen from the moment the server rendered", () => {
    const closes = LOADED + ((1 * 24 + 4) * 3600 + 1 * 60 + 6) * SECOND;
    const host = document.createElement("div");
    // Rendered a minute before this test's clock: a cached page shows its render's numbers.
    host.innerHTML = renderToString(<Countdown {...props(iso(closes), LOADED - 60 * SECOND)} />);
    expect(cells(host)).toEqual(["01", "04", "02", "06"]);
    expect(labels(host)).toEqual(["day", "hours", "mins", "secs"]);
    expect(spoken(host)).toBe("Beta closes in 1 day, 4 hours, and 2 minutes");
  });

  it("labels each unit in its number's plural form, in Arabic too", () => {
    const arabic = {
      ...props(null),
      copy: arUi.countdown,
      counting: countingFor("ar-AE-u-nu-latn"),
    };
    const at = (days: number, hours: number, mins: number, secs: number) => {
      const closes = LOADED + (((days * 24 + hours) * 60 + mins) * 60 + secs) * SECOND;
      const host = document.createElement("div");
      host.innerHTML = renderToString(<Countdown {...arabic} betaClosesAt={iso(closes)} />);
      return labels(host);
    };
    expect(at(1, 2, 3, 11)).toEqual(["يوم", "ساعتان", "دقائق", "ثانية"]);
    expect(at(2, 10, 11, 0)).toEqual(["يومان", "ساعات", "دقيقة", "ثانية"]);
    expect(at(3, 1, 2, 59)).toEqual(["أيام", "ساعة", "دقيقتان", "ثانية"]);
    expect(at(11, 23, 1, 2)).toEqual(["يومًا", "ساعة", "دقيقة", "ثانيتان"]);
    expect(at(0, 0, 0, 7)).toEqual(["يوم", "ساعة", "دقيقة", "ثوانٍ"]);
  });

  it("hydrates the server's numbers without a mismatch, even a page rendered minutes ago", () => {
    for (const betaClosesAt of [null, iso(LOADED + 5 * 86_400_000)]) {
      // The server rendered the page 4 minutes before this visitor's load (the render cache).
      const renderedAt = LOADED - 4 * 60 * SECOND;
      const rendered = props(betaClosesAt, renderedAt);
      vi.setSystemTime(renderedAt);
      const host = document.createElement("div");
      host.innerHTML = renderToString(<Countdown {...rendered} />);
      vi.setSystemTime(LOADED);
      document.body.append(host);
      const onRecoverableError = vi.fn();
      const errors = vi.spyOn(console, "error");
      let root: ReturnType<typeof hydrateRoot> | undefined;
      act(() => {
        root = hydrateRoot(host, <Countdown {...rendered} />, { onRecoverableError });
      });
      expect(onRecoverableError).not.toHaveBeenCalled();
      expect(errors).not.toHaveBeenCalled();
      // Then the browser's clock: two days from this page load, or the fixed close from now.
      expect(cells(host)).toEqual(
        betaClosesAt ? ["05", "00", "00", "00"] : ["02", "00", "00", "00"],
      );
      act(() => root?.unmount());
      host.remove();
    }
  });

  it("changes a label with its number as the browser counts", () => {
    const { container } = render(<Countdown {...props(iso(LOADED + (2 * 86_400 + 1) * SECOND))} />);
    expect(cells(container)).toEqual(["02", "00", "00", "01"]);
    expect(labels(container)).toEqual(["days", "hours", "mins", "sec"]);
    act(() => vi.advanceTimersByTime(2 * SECOND));
    expect(cells(container)).toEqual(["01", "23", "59", "59"]);
    expect(labels(container)).toEqual(["day", "hours", "mins", "secs"]);
  });

  it("counts from when this browser first loaded the page, as the start script left it", () => {
    setStart(LOADED);
    vi.setSystemTime(LOADED + 5 * SECOND);
    const { container } = render(<Countdown {...props(null)} />);
    expect(cells(container)).toEqual(["01", "23", "59", "55"]);
    setStart(LOADED - 36 * 3600 * SECOND);
    const second = render(<Countdown {...props(null)} />);
    expect(cells(second.container)).toEqual(["00", "11", "59", "55"]);
  });

  it("is over two days after that first load, and does not start again", () => {
    setStart(LOADED - 2 * 86_400_000 - 3600 * SECOND);
    const { container } = render(<Countdown {...props(null)} />);
    expect(cells(container)).toEqual(["00", "00", "00", "00"]);
    expect(spoken(container)).toBe("The beta has closed");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("hydrates a returning visitor's page as the server sent it, then shows the browser's figures", () => {
    // The start script kept a first load a day ago (and hid cells that are not yet ticking).
    setStart(LOADED - 86_400_000);
    const rendered = props(null, LOADED);
    const host = document.createElement("div");
    host.innerHTML = renderToString(<Countdown {...rendered} />);
    document.body.append(host);
    const onRecoverableError = vi.fn();
    const errors = vi.spyOn(console, "error");
    let root: ReturnType<typeof hydrateRoot> | undefined;
    act(() => {
      root = hydrateRoot(host, <Countdown {...rendered} />, { onRecoverableError });
    });
    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    expect(cells(host)).toEqual(["01", "00", "00", "00"]);
    expect(spoken(host)).toBe("Beta closes in 1 day");
    // Marked ticking, so shown again, in the same render as its figures.
    expect(host.querySelector("[data-countdown]")?.hasAttribute("data-ticking")).toBe(true);
    act(() => root?.unmount());
    host.remove();
  });

  it("counts down from two days after page load once mounted", () => {
    const { container } = render(<Countdown {...props(null)} />);
    expect(cells(container)).toEqual(["02", "00", "00", "00"]);
    act(() => vi.advanceTimersByTime(SECOND));
    expect(cells(container)).toEqual(["01", "23", "59", "59"]);
    act(() => vi.advanceTimersByTime(SECOND));
    expect(cells(container)).toEqual(["01", "23", "59", "58"]);
  });

  it("uses BETA_CLOSES_AT when given", () => {
    const closes = LOADED + ((3 * 24 + 4) * 3600 + 5 * 60 + 6) * SECOND;
    const { container } = render(<Countdown {...props(iso(closes))} />);
    expect(cells(container)).toEqual(["03", "04", "05", "06"]);
    expect(spoken(container)).toBe("Beta closes in 3 days, 4 hours, and 5 minutes");
  });

  it("shows zeros once the target has passed, and stops ticking", () => {
    const { container } = render(<Countdown {...props(iso(LOADED - 3600 * SECOND))} />);
    expect(cells(container)).toEqual(["00", "00", "00", "00"]);
    expect(spoken(container)).toBe("The beta has closed");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("reaches zero at the target and stays there", () => {
    const { container } = render(<Countdown {...props(iso(LOADED + 2 * SECOND))} />);
    expect(cells(container)).toEqual(["00", "00", "00", "02"]);
    act(() => vi.advanceTimersByTime(2 * SECOND));
    expect(cells(container)).toEqual(["00", "00", "00", "00"]);
    act(() => vi.advanceTimersByTime(10 * SECOND));
    expect(cells(container)).toEqual(["00", "00", "00", "00"]);
  });

  it("gives screen readers a sentence that changes once a minute, not every second", () => {
    // 1 hour, 2 minutes and 30 seconds left.
    const { container } = render(<Countdown {...props(iso(LOADED + 3750 * SECOND))} />);
    const first = spoken(container);
    expect(first).toBe("Beta closes in 1 hour and 2 minutes");
    for (let second = 1; second <= 29; second += 1) {
      act(() => vi.advanceTimersByTime(SECOND));
      expect(spoken(container)).toBe(first);
    }
    expect(cells(container)[3]).toBe("01");
    act(() => vi.advanceTimersByTime(SECOND));
    expect(spoken(container)).toBe("Beta closes in 1 hour and 2 minutes");
    act(() => vi.advanceTimersByTime(SECOND));
    expect(spoken(container)).toBe("Beta closes in 1 hour and 1 minute");
  });

  it("hides the ticking cells from screen readers and announces nothing by itself", () => {
    const { container } = render(<Countdown {...props(null)} />);
    const visual = container.querySelector('[data-unit="secs"]')?.closest("[aria-hidden]");
    expect(visual?.getAttribute("aria-hidden")).toBe("true");
    expect(container.querySelector("[aria-live], [role=status], [role=timer], [role=alert]")).toBe(
      null,
    );
  });

  it("stops its timer when unmounted", () => {
    const { unmount } = render(<Countdown {...props(null)} />);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
