// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dismiss, getSnapshot, resume, TOAST_DURATION_MS, toast } from "~/browser/toast";
import { Toaster } from "~/components/Toaster";

vi.mock("~/hooks/use-site", async () => {
  const { uiCopy } = await import("~/content/ui-copy.server");
  return { useUi: () => uiCopy("en"), useOptionalUi: () => uiCopy("en"), useLocale: () => "en" };
});

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  // The store is the page's one toaster: empty it for the next test.
  for (const item of getSnapshot()) dismiss(item.id);
  resume();
  vi.useRealTimers();
});

const shown = () =>
  screen.queryAllByRole("listitem").map((item) => item.querySelector("p")?.textContent);

/** The first toast brings the toasts' code: let it come (fake timers do not hold it up). */
const loaded = () =>
  act(async () => {
    await import("~/browser/toasts");
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });

describe("Toaster", () => {
  it("renders an empty polite live region on the server, whatever the store holds", () => {
    toast("Not for the server");
    const host = document.createElement("div");
    host.innerHTML = renderToString(<Toaster />);
    const region = host.querySelector('[role="status"]');
    expect(region?.getAttribute("aria-live")).toBe("polite");
    expect(host.textContent).toBe("");
  });

  it("has the live region before any toast, and loads the toasts' code only with the first", () => {
    render(<Toaster />);
    const region = screen.getByRole("status");
    expect(region.getAttribute("aria-live")).toBe("polite");
    expect(region.getAttribute("aria-label")).toBe("Notifications");
    expect(region.childElementCount).toBe(0);
  });

  it("shows a toast inside the live region and removes it after 5 s", async () => {
    render(<Toaster />);
    act(() => {
      toast("Link copied");
    });
    await loaded();
    expect(within(screen.getByRole("status")).getByText("Link copied")).toBeTruthy();
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(shown()).toEqual(["Link copied"]);
    act(() => vi.advanceTimersByTime(1));
    expect(shown()).toEqual([]);
    expect(screen.getByRole("status")).toBeTruthy();
  });

  it("honours a custom duration", async () => {
    render(<Toaster />);
    act(() => {
      toast("Quick", { duration: 1500 });
    });
    await loaded();
    act(() => vi.advanceTimersByTime(1500));
    expect(shown()).toEqual([]);
  });

  it("shows at most three toasts, newest last", async () => {
    render(<Toaster />);
    act(() => {
      for (const message of ["one", "two", "three", "four"]) toast(message);
    });
    await loaded();
    expect(shown()).toEqual(["two", "three", "four"]);
  });

  it("removes a toast with its Dismiss button", async () => {
    render(<Toaster />);
    act(() => {
      toast("first");
      toast("second");
    });
    await loaded();
    const buttons = screen.getAllByRole("button", { name: "Dismiss" });
    expect(buttons).toHaveLength(2);
    fireEvent.click(buttons[0] as HTMLElement);
    expect(shown()).toEqual(["second"]);
  });

  it("holds toasts while the pointer is on them", async () => {
    render(<Toaster />);
    act(() => {
      toast("Link copied");
    });
    await loaded();
    const list = screen.getByRole("list");
    fireEvent.mouseEnter(list);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 3));
    expect(shown()).toEqual(["Link copied"]);
    fireEvent.mouseLeave(list);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(shown()).toEqual([]);
  });

  it("does not stay paused after the last toast goes while focused", async () => {
    render(<Toaster />);
    act(() => {
      toast("first");
    });
    await loaded();
    const button = screen.getByRole("button", { name: "Dismiss" });
    button.focus();
    fireEvent.click(button);
    act(() => {
      toast("second");
    });
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(shown()).toEqual([]);
  });
});
