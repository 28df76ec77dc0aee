// @vitest-environment happy-dom
import { act, cleanup, render } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Countdown } from "~/components/Countdown";
import { ui } from "~/content/ui";
import { countingFor } from "~/lib/plural.server";

const LOADED = Date.UTC(2026, 5, 1, 8, 30, 0);
const SECOND = 1000;
const counting = countingFor("en-AE");

beforeEach(() => {
  // Fake timers also fix performance.timeOrigin, the page-load time, at LOADED.
  vi.useFakeTimers({ now: LOADED });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function cells(container: HTMLElement) {
  const value = (unit: string) => container.querySelector(`[data-unit="${unit}"]`)?.textContent;
  return [value("days"), value("hours"), value("mins"), value("secs")];
}

const spoken = (container: HTMLElement) => container.querySelector(".sr-only")?.textContent;

const iso = (ms: number) => new Date(ms).toISOString();

describe("Countdown", () => {
  it("renders a placeholder on the server, the same for every visitor", () => {
    const html = renderToString(
      <Countdown betaClosesAt={null} copy={ui.countdown} counting={counting} />,
    );
    const host = document.createElement("div");
    host.innerHTML = html;
    expect(cells(host)).toEqual(["--", "--", "--", "--"]);
    expect(host.textContent).toContain("days");
    expect(host.textContent).toContain("secs");
    expect(spoken(host)).toBe("Beta closes in 2 days");
    const dated = document.createElement("div");
    dated.innerHTML = renderToString(
      <Countdown
        betaClosesAt={iso(LOADED + 5 * 86_400_000)}
        copy={ui.countdown}
        counting={counting}
      />,
    );
    expect(cells(dated)).toEqual(["--", "--", "--", "--"]);
    expect(spoken(dated)).toBe("Beta closes soon");
  });

  it("hydrates the server's placeholder without a mismatch, then shows numbers", () => {
    const host = document.createElement("div");
    host.innerHTML = renderToString(
      <Countdown betaClosesAt={null} copy={ui.countdown} counting={counting} />,
    );
    document.body.append(host);
    const onRecoverableError = vi.fn();
    let root: ReturnType<typeof hydrateRoot> | undefined;
    act(() => {
      root = hydrateRoot(
        host,
        <Countdown betaClosesAt={null} copy={ui.countdown} counting={counting} />,
        {
          onRecoverableError,
        },
      );
    });
    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(cells(host)).toEqual(["02", "00", "00", "00"]);
    act(() => root?.unmount());
    host.remove();
  });

  it("counts from when the page loaded, not from when it hydrated", () => {
    vi.setSystemTime(LOADED + 5 * SECOND);
    const { container } = render(
      <Countdown betaClosesAt={null} copy={ui.countdown} counting={counting} />,
    );
    expect(cells(container)).toEqual(["01", "23", "59", "55"]);
  });

  it("counts down from two days after page load once mounted", () => {
    const { container } = render(
      <Countdown betaClosesAt={null} copy={ui.countdown} counting={counting} />,
    );
    expect(cells(container)).toEqual(["02", "00", "00", "00"]);
    act(() => vi.advanceTimersByTime(SECOND));
    expect(cells(container)).toEqual(["01", "23", "59", "59"]);
    act(() => vi.advanceTimersByTime(SECOND));
    expect(cells(container)).toEqual(["01", "23", "59", "58"]);
  });

  it("uses BETA_CLOSES_AT when given", () => {
    const closes = LOADED + ((3 * 24 + 4) * 3600 + 5 * 60 + 6) * SECOND;
    const { container } = render(
      <Countdown betaClosesAt={iso(closes)} copy={ui.countdown} counting={counting} />,
    );
    expect(cells(container)).toEqual(["03", "04", "05", "06"]);
    expect(spoken(container)).toBe("Beta closes in 3 days, 4 hours, and 5 minutes");
  });

  it("shows zeros once the target has passed, and stops ticking", () => {
    const { container } = render(
      <Countdown
        betaClosesAt={iso(LOADED - 3600 * SECOND)}
        copy={ui.countdown}
        counting={counting}
      />,
    );
    expect(cells(container)).toEqual(["00", "00", "00", "00"]);
    expect(spoken(container)).toBe("The beta has closed");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("reaches zero at the target and stays there", () => {
    const { container } = render(
      <Countdown betaClosesAt={iso(LOADED + 2 * SECOND)} copy={ui.countdown} counting={counting} />,
    );
    expect(cells(container)).toEqual(["00", "00", "00", "02"]);
    act(() => vi.advanceTimersByTime(2 * SECOND));
    expect(cells(container)).toEqual(["00", "00", "00", "00"]);
    act(() => vi.advanceTimersByTime(10 * SECOND));
    expect(cells(container)).toEqual(["00", "00", "00", "00"]);
  });

  it("gives screen readers a sentence that changes once a minute, not every second", () => {
    // 1 hour, 2 minutes and 30 seconds left.
    const { container } = render(
      <Countdown
        betaClosesAt={iso(LOADED + 3750 * SECOND)}
        copy={ui.countdown}
        counting={counting}
      />,
    );
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
    const { container } = render(
      <Countdown betaClosesAt={null} copy={ui.countdown} counting={counting} />,
    );
    const visual = container.querySelector('[data-unit="secs"]')?.closest("[aria-hidden]");
    expect(visual?.getAttribute("aria-hidden")).toBe("true");
    expect(container.querySelector("[aria-live], [role=status], [role=timer], [role=alert]")).toBe(
      null,
    );
  });

  it("stops its timer when unmounted", () => {
    const { unmount } = render(
      <Countdown betaClosesAt={null} copy={ui.countdown} counting={counting} />,
    );
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
