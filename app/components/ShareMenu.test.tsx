// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { track } from "~/analytics/queue.client";
import { dismiss, getSnapshot } from "~/browser/toast";
import { hideTooltip, TOOLTIP_OPEN_DELAY_MS } from "~/browser/tooltip";
import { ShareMenu } from "~/components/ShareMenu";
import { Toaster } from "~/components/Toaster";

vi.mock("~/hooks/use-site", async () => {
  const { uiCopy } = await import("~/content/ui-copy.server");
  return { useUi: () => uiCopy("en"), useOptionalUi: () => uiCopy("en"), useLocale: () => "en" };
});
vi.mock("~/analytics/queue.client", () => ({ track: vi.fn() }));

const SITE = "https://darb.example";

function stubShare(share: ((data: unknown) => Promise<void>) | undefined) {
  Object.defineProperty(navigator, "share", { value: share, configurable: true });
}

beforeEach(() => {
  stubShare(undefined);
});

afterEach(() => {
  hideTooltip();
  cleanup();
  for (const item of getSnapshot()) dismiss(item.id);
  stubShare(undefined);
  vi.mocked(track).mockClear();
});

function renderMenu(variant?: "button" | "icon") {
  const view = render(
    <>
      <ShareMenu siteUrl={SITE} placement="header" variant={variant} />
      <Toaster />
      <button type="button">Elsewhere</button>
    </>,
  );
  const details = view.container.querySelector("details") as HTMLDetailsElement;
  const summary = details.querySelector("summary") as HTMLElement;
  return { details, summary };
}

const links = () => screen.getAllByRole("link", { hidden: true });

/**
 * A visitor reaching for the menu (a press): its code loads, and the copy item comes with it.
 * Then a click opens it.
 */
async function open(details: HTMLDetailsElement, summary: HTMLElement) {
  fireEvent.pointerDown(summary);
  await screen.findByRole("button", { name: "Copy link", hidden: true });
  fireEvent.click(summary);
  expect(details.open).toBe(true);
}

describe("ShareMenu", () => {
  it("is real links in a disclosure without JavaScript, and no copy button", () => {
    const host = document.createElement("div");
    host.innerHTML = renderToString(<ShareMenu siteUrl={SITE} placement="header" />);
    expect(host.querySelector("details > summary")?.textContent).toBe("Share");
    expect(host.querySelectorAll("details a[href]")).toHaveLength(4);
    expect(host.querySelector("button")).toBeNull();
  });

  it("links to each network's share page with the attributed page URL", () => {
    renderMenu();
    const hrefs = links().map((link) => link.getAttribute("href"));
    const page = (source: string) => encodeURIComponent(`${SITE}/?source=${source}`);
    // WhatsApp first: it is how the site's visitors pass links on.
    expect(hrefs).toEqual([
      expect.stringMatching(new RegExp(`^https://wa\\.me/\\?text=.+${page("whatsapp")}$`)),
      `https://www.facebook.com/sharer/sharer.php?u=${page("facebook")}`,
      expect.stringMatching(
        new RegExp(`^https://twitter\\.com/intent/tweet\\?text=.+&url=${page("twitter")}$`),
      ),
      `https://www.linkedin.com/sharing/share-offsite/?url=${page("linkedin")}`,
    ]);
    // Each network with its own mark from the page's sprite.
    expect(links().map((link) => link.querySelector("use")?.getAttribute("href"))).toEqual([
      "#icon-brand-whatsapp",
      "#icon-brand-facebook",
      "#icon-brand-twitter",
      "#icon-brand-linkedin",
    ]);
    for (const link of links()) {
      expect(link.getAttribute("target")).toBe("_blank");
      expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    }
  });

  it("keeps the word Share on the button variant", () => {
    const { summary } = renderMenu();
    expect(summary.textContent).toBe("Share");
    expect(summary.hasAttribute("aria-label")).toBe(false);
  });

  it("copies the share link, confirms with a toast and reports it", async () => {
    const writeText = vi.spyOn(navigator.clipboard, "writeText").mockResolvedValue(undefined);
    const { details, summary } = renderMenu();
    await open(details, summary);
    fireEvent.click(screen.getByRole("button", { name: "Copy link" }));
    expect(await screen.findByText("Link copied")).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(`${SITE}/?source=copy`);
    expect(track).toHaveBeenCalledWith("social_share", { method: "copy", placement: "header" });
    expect(details.open).toBe(false);
    expect(document.activeElement).toBe(summary);
  });

  it("says so, and logs, when the copy fails", async () => {
    const failure = new Error("denied");
    vi.spyOn(navigator.clipboard, "writeText").mockRejectedValue(failure);
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const { details, summary } = renderMenu();
    await open(details, summary);
    fireEvent.click(screen.getByRole("button", { name: "Copy link" }));
    expect(await screen.findByText("Couldn't copy the link")).toBeTruthy();
    expect(log).toHaveBeenCalledWith("Copy failed:", failure);
    expect(screen.queryByText("Link copied")).toBeNull();
    expect(track).not.toHaveBeenCalled();
  });

  it("has no copy item before a visitor reaches for it: its code has not come yet", () => {
    renderMenu();
    expect(screen.queryByRole("button", { name: "Copy link", hidden: true })).toBeNull();
  });

  it("closes on Escape and puts focus back on the summary", async () => {
    const { details, summary } = renderMenu();
    await open(details, summary);
    const firstLink = links()[0] as HTMLElement;
    act(() => firstLink.focus());
    fireEvent.keyDown(firstLink, { key: "Escape" });
    expect(details.open).toBe(false);
    expect(document.activeElement).toBe(summary);
  });

  it("closes on a click outside, not on one inside", async () => {
    const { details, summary } = renderMenu();
    await open(details, summary);
    fireEvent.click(screen.getByRole("list", { hidden: true }));
    expect(details.open).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Elsewhere" }));
    expect(details.open).toBe(false);
  });

  it("opens a network in a popup, reports it and closes the menu, even before its code came", () => {
    const popup = vi.spyOn(window, "open").mockReturnValue({ opener: window } as unknown as Window);
    const { details, summary } = renderMenu();
    fireEvent.click(summary);
    const facebook = links()[1] as HTMLAnchorElement;
    const notCancelled = fireEvent.click(facebook);
    expect(notCancelled).toBe(false);
    expect(popup).toHaveBeenCalledWith(
      facebook.href,
      "_blank",
      expect.stringMatching(/^popup=yes,width=600,height=400,/),
    );
    expect(track).toHaveBeenCalledWith("social_share", { method: "facebook", placement: "header" });
    expect(details.open).toBe(false);
  });

  it("uses the native share sheet when there is one, instead of the menu", async () => {
    const nativeShare = vi.fn(() => Promise.resolve());
    stubShare(nativeShare);
    const { summary } = renderMenu();
    // The click is cancelled, which keeps the menu shut in a browser. (happy-dom opens
    // <details> before the click reaches React, so its open state says nothing here.)
    expect(fireEvent.click(summary)).toBe(false);
    expect(nativeShare).toHaveBeenCalledWith(
      expect.objectContaining({ url: `${SITE}/?source=share` }),
    );
    await waitFor(() =>
      expect(track).toHaveBeenCalledWith("social_share", { method: "native", placement: "header" }),
    );
  });

  it("as an icon, is a 44 px control named Share with a tooltip", async () => {
    vi.useFakeTimers({ now: Date.UTC(2028, 0, 1) });
    try {
      const { summary } = renderMenu("icon");
      expect(summary.getAttribute("aria-label")).toBe("Share");
      expect(summary.textContent).toBe("");
      // The header's 44 px icon control (tailwind.css; tests/e2e/header.spec.ts measures it).
      expect(summary.className).toContain("icon-button");
      fireEvent.pointerEnter(summary, { pointerType: "mouse" });
      await act(async () => {
        await import("~/browser/tooltip");
        for (let i = 0; i < 5; i++) await Promise.resolve();
      });
      act(() => vi.advanceTimersByTime(TOOLTIP_OPEN_DELAY_MS));
      expect(summary.querySelector('[role="tooltip"]')?.textContent).toBe("Share");
    } finally {
      vi.useRealTimers();
    }
  });
});
