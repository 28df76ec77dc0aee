// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type Cue,
  cue,
  hideTooltip,
  TOOLTIP_OPEN_DELAY_MS,
  TOOLTIP_SKIP_DELAY_MS,
} from "~/browser/tooltip";

// Tooltips share "the last one closed at" across the page, and so across tests: start each
// test far later than anything before it.
let clock = Date.UTC(2026, 0, 1);
beforeEach(() => {
  clock += 3_600_000;
  vi.useFakeTimers({ now: clock });
});

afterEach(() => {
  hideTooltip();
  document.body.innerHTML = "";
  vi.useRealTimers();
});

function control(label: string): HTMLButtonElement {
  const button = document.createElement("button");
  button.setAttribute("aria-label", label);
  button.className = "relative";
  document.body.append(button);
  return button;
}

/** The bubble's text when it shows; null when it does not. */
const bubble = (element: HTMLElement) =>
  element.querySelector('[role="tooltip"]')?.textContent ?? null;

const send = (element: HTMLElement, type: string, more: Partial<Cue> = {}) =>
  cue({ type, at: Date.now(), pointerType: "mouse", ...more }, element);
const hover = (element: HTMLElement) => send(element, "pointerenter");
const wait = (ms: number) => vi.advanceTimersByTime(ms);

describe("a tooltip", () => {
  it("keeps the product's delays (docs/product.md)", () => {
    expect(TOOLTIP_OPEN_DELAY_MS).toBe(700);
    expect(TOOLTIP_SKIP_DELAY_MS).toBe(300);
  });

  it("opens after 700 ms of hover, not before, showing the control's name, hidden from its name", () => {
    const share = control("Share");
    hover(share);
    wait(699);
    expect(bubble(share)).toBeNull();
    wait(1);
    expect(bubble(share)).toBe("Share");
    expect(share.querySelector('[role="tooltip"]')?.getAttribute("aria-hidden")).toBe("true");
  });

  it("counts the delay from the event, not from when its code arrived", () => {
    const share = control("Share");
    const at = Date.now();
    wait(400);
    cue({ type: "pointerenter", at, pointerType: "mouse" }, share);
    wait(299);
    expect(bubble(share)).toBeNull();
    wait(1);
    expect(bubble(share)).toBe("Share");
  });

  it("does not open if the pointer leaves before the delay", () => {
    const share = control("Share");
    hover(share);
    wait(500);
    send(share, "pointerleave");
    wait(1000);
    expect(bubble(share)).toBeNull();
  });

  it("ignores a touch, which would otherwise leave it stuck open", () => {
    const share = control("Share");
    send(share, "pointerenter", { pointerType: "touch" });
    wait(1000);
    expect(bubble(share)).toBeNull();
  });

  it("opens at once on keyboard focus and closes on blur", () => {
    const share = control("Share");
    share.focus();
    send(share, "focus");
    expect(bubble(share)).toBe("Share");
    send(share, "blur");
    expect(bubble(share)).toBeNull();
  });

  it("stays shut on focus that has already moved on", () => {
    const share = control("Share");
    send(share, "focus");
    expect(bubble(share)).toBeNull();
  });

  it("closes on Escape wherever focus is, and when the control is pressed", () => {
    const share = control("Share");
    hover(share);
    wait(TOOLTIP_OPEN_DELAY_MS);
    document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect(bubble(share)).toBeNull();
    share.focus();
    send(share, "focus");
    send(share, "keydown", { key: "Tab" });
    expect(bubble(share)).toBe("Share");
    send(share, "keydown", { key: "Enter" });
    expect(bubble(share)).toBeNull();
    share.focus();
    send(share, "focus");
    send(share, "pointerdown");
    expect(bubble(share)).toBeNull();
  });

  it("stays off its control's open menu", () => {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.setAttribute("aria-label", "Share");
    details.append(summary);
    document.body.append(details);
    details.open = true;
    hover(summary);
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(bubble(summary)).toBeNull();
    // Focus handed back as the menu closes: the control said its menu was open then.
    details.open = false;
    summary.focus();
    send(summary, "focus", { shut: true });
    expect(bubble(summary)).toBeNull();
  });

  it("opens the next tooltip at once within 300 ms of the last one closing", () => {
    const share = control("Share");
    const menu = control("Menu");
    const search = control("Search");
    hover(share);
    wait(TOOLTIP_OPEN_DELAY_MS);
    send(share, "pointerleave");
    wait(TOOLTIP_SKIP_DELAY_MS - 1);
    hover(menu);
    expect(bubble(menu)).toBe("Menu");
    send(menu, "pointerleave");
    wait(TOOLTIP_SKIP_DELAY_MS);
    hover(search);
    expect(bubble(search)).toBeNull();
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(bubble(search)).toBe("Search");
  });

  it("shows one at a time", () => {
    const share = control("Share");
    const menu = control("Menu");
    share.focus();
    send(share, "focus");
    hover(menu);
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(bubble(menu)).toBe("Menu");
    expect(bubble(share)).toBeNull();
  });
});
