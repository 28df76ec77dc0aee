// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS, Tooltip } from "~/components/Tooltip";

// Tooltips share "the last one closed at" across the page, and so across tests: start each
// test far later than anything before it.
let clock = Date.UTC(2026, 0, 1);
beforeEach(() => {
  clock += 3_600_000;
  vi.useFakeTimers({ now: clock });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function IconButton({
  label,
  describes,
  disabled,
}: {
  label: string;
  describes?: boolean;
  disabled?: boolean;
}) {
  return (
    <Tooltip label={label} describes={describes} disabled={disabled}>
      {({ props, tooltip }) => (
        <button type="button" className="relative" data-testid={label} {...props}>
          {describes ? label.split(" ")[0] : "★"}
          {tooltip}
        </button>
      )}
    </Tooltip>
  );
}

/** The bubble's text when it shows; null when it does not. */
function bubble(control: HTMLElement): string | null {
  const tip = control.querySelector('[role="tooltip"]');
  return tip && !tip.hasAttribute("hidden") ? tip.textContent : null;
}

const hover = (element: HTMLElement) => fireEvent.pointerEnter(element, { pointerType: "mouse" });
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe("Tooltip", () => {
  it("keeps the product's delays (docs/product.md)", () => {
    expect(TOOLTIP_OPEN_DELAY_MS).toBe(700);
    expect(TOOLTIP_SKIP_DELAY_MS).toBe(300);
  });

  it("names an icon-only control, and renders no bubble without JavaScript", () => {
    const host = document.createElement("div");
    host.innerHTML = renderToString(<IconButton label="Share" />);
    const button = host.querySelector("button") as HTMLElement;
    expect(button.getAttribute("aria-label")).toBe("Share");
    expect(button.hasAttribute("aria-describedby")).toBe(false);
    expect(host.querySelector('[role="tooltip"]')).toBeNull();
  });

  it("opens after 700 ms of hover, not before", () => {
    render(<IconButton label="Share" />);
    const button = screen.getByRole("button", { name: "Share" });
    hover(button);
    wait(699);
    expect(bubble(button)).toBeNull();
    wait(1);
    expect(bubble(button)).toBe("Share");
  });

  it("does not open if the pointer leaves before the delay", () => {
    render(<IconButton label="Share" />);
    const button = screen.getByRole("button", { name: "Share" });
    hover(button);
    wait(500);
    fireEvent.pointerLeave(button, { pointerType: "mouse" });
    wait(1000);
    expect(bubble(button)).toBeNull();
  });

  it("ignores a touch, which would otherwise leave it stuck open", () => {
    render(<IconButton label="Share" />);
    const button = screen.getByRole("button", { name: "Share" });
    fireEvent.pointerEnter(button, { pointerType: "touch" });
    wait(1000);
    expect(bubble(button)).toBeNull();
  });

  it("opens at once on keyboard focus and closes on blur", () => {
    render(<IconButton label="Share" />);
    const button = screen.getByRole("button", { name: "Share" });
    act(() => button.focus());
    expect(bubble(button)).toBe("Share");
    act(() => button.blur());
    expect(bubble(button)).toBeNull();
  });

  it("closes on mouse leave", () => {
    render(<IconButton label="Share" />);
    const button = screen.getByRole("button", { name: "Share" });
    hover(button);
    wait(TOOLTIP_OPEN_DELAY_MS);
    fireEvent.pointerLeave(button, { pointerType: "mouse" });
    expect(bubble(button)).toBeNull();
  });

  it("closes on Escape, wherever focus is", () => {
    render(<IconButton label="Share" />);
    const button = screen.getByRole("button", { name: "Share" });
    hover(button);
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(bubble(button)).toBe("Share");
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(bubble(button)).toBeNull();
  });

  it("closes when the control is pressed", () => {
    render(<IconButton label="Share" />);
    const button = screen.getByRole("button", { name: "Share" });
    act(() => button.focus());
    fireEvent.keyDown(button, { key: "Enter" });
    expect(bubble(button)).toBeNull();
  });

  it("stays shut while disabled, and closes when it becomes disabled", () => {
    const { rerender } = render(<IconButton label="Share" />);
    const button = screen.getByRole("button", { name: "Share" });
    act(() => button.focus());
    expect(bubble(button)).toBe("Share");
    rerender(<IconButton label="Share" disabled />);
    expect(bubble(button)).toBeNull();
    hover(button);
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(bubble(button)).toBeNull();
  });

  it("opens the next tooltip at once within 300 ms of the last one closing", () => {
    render(
      <>
        <IconButton label="Share" />
        <IconButton label="Menu" />
        <IconButton label="Search" />
      </>,
    );
    const [share, menu, search] = ["Share", "Menu", "Search"].map((name) =>
      screen.getByRole("button", { name }),
    ) as [HTMLElement, HTMLElement, HTMLElement];
    hover(share);
    wait(TOOLTIP_OPEN_DELAY_MS);
    fireEvent.pointerLeave(share, { pointerType: "mouse" });
    wait(TOOLTIP_SKIP_DELAY_MS - 1);
    hover(menu);
    expect(bubble(menu)).toBe("Menu");
    fireEvent.pointerLeave(menu, { pointerType: "mouse" });
    wait(TOOLTIP_SKIP_DELAY_MS);
    hover(search);
    expect(bubble(search)).toBeNull();
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(bubble(search)).toBe("Search");
  });

  it("shows one tooltip at a time", () => {
    render(
      <>
        <IconButton label="Share" />
        <IconButton label="Menu" />
      </>,
    );
    const share = screen.getByRole("button", { name: "Share" });
    const menu = screen.getByRole("button", { name: "Menu" });
    act(() => share.focus());
    hover(menu);
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(bubble(menu)).toBe("Menu");
    expect(bubble(share)).toBeNull();
  });

  it("describes a control that already has a name, instead of naming it", () => {
    render(<IconButton label="Copy the page link" describes />);
    const button = screen.getByRole("button", { name: "Copy" });
    expect(button.hasAttribute("aria-label")).toBe(false);
    const tip = button.querySelector('[role="tooltip"]') as HTMLElement;
    expect(button.getAttribute("aria-describedby")).toBe(tip.id);
    expect(bubble(button)).toBeNull();
    act(() => button.focus());
    expect(bubble(button)).toBe("Copy the page link");
    expect(screen.getByRole("button", { name: "Copy" })).toBe(button);
  });
});
