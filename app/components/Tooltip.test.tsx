// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hideTooltip, TOOLTIP_OPEN_DELAY_MS } from "~/browser/tooltip";
import { Tooltip, tooltipProps } from "~/components/Tooltip";

afterEach(() => {
  hideTooltip();
  cleanup();
  vi.useRealTimers();
});

function IconButton({ label }: { label: string }) {
  return (
    <button type="button" className="relative" {...tooltipProps(label)}>
      ★
    </button>
  );
}

/** Lets the tooltip's code (loaded on the first event) take what the control heard. */
const settle = () =>
  act(async () => {
    await import("~/browser/tooltip");
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });

describe("tooltipProps", () => {
  it("names an icon-only control, and renders no bubble without JavaScript", () => {
    const host = document.createElement("div");
    host.innerHTML = renderToString(<IconButton label="Share" />);
    const button = host.querySelector("button") as HTMLElement;
    expect(button.getAttribute("aria-label")).toBe("Share");
    expect(host.querySelector('[role="tooltip"]')).toBeNull();
  });

  it("hands the control's events to the tooltip's code, which opens it 700 ms after the hover", async () => {
    vi.useFakeTimers({ now: Date.UTC(2027, 0, 1) });
    render(<IconButton label="Share" />);
    const button = screen.getByRole("button", { name: "Share" });
    fireEvent.pointerEnter(button, { pointerType: "mouse" });
    await settle();
    act(() => vi.advanceTimersByTime(TOOLTIP_OPEN_DELAY_MS - 1));
    expect(button.querySelector('[role="tooltip"]')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(button.querySelector('[role="tooltip"]')?.textContent).toBe("Share");
    // In order: the leave after the enter closes it.
    fireEvent.pointerLeave(button, { pointerType: "mouse" });
    await settle();
    expect(button.querySelector('[role="tooltip"]')).toBeNull();
  });

  it("works the same for a control rendered by a function (Tooltip)", () => {
    const host = document.createElement("div");
    host.innerHTML = renderToString(
      <Tooltip label="E-mail us">
        {({ props, tooltip }) => (
          <a href="mailto:hi@darb.example" {...props}>
            @{tooltip}
          </a>
        )}
      </Tooltip>,
    );
    expect(host.querySelector("a")?.getAttribute("aria-label")).toBe("E-mail us");
  });
});
