import { describe, expect, it, vi } from "vitest";
import {
  nativeShare,
  openSharePopup,
  POPUP_SIZE,
  popupFeatures,
  type ShareData,
  shareUrl,
} from "~/share/share";
import { SHARE_PLATFORMS } from "~/shared/share-platforms";

const PLAIN: ShareData = {
  url: "https://example.com/",
  text: "Drive better",
  title: "Drive Coach",
};

const TRICKY: ShareData = {
  url: "https://example.com/ar?utm_source=share&x=1 2#top",
  text: "قُد بأمان & وفّر الوقود",
  title: "عنوان",
};

/** The features string as a map, so the assertions do not depend on the order. */
function features(value: string): Record<string, string> {
  return Object.fromEntries(value.split(",").map((pair) => pair.split("=") as [string, string]));
}

describe("shareUrl", () => {
  it("builds each network's share page", () => {
    expect(shareUrl("facebook", PLAIN)).toBe(
      "https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fexample.com%2F",
    );
    expect(shareUrl("twitter", PLAIN)).toBe(
      "https://twitter.com/intent/tweet?text=Drive%20better&url=https%3A%2F%2Fexample.com%2F",
    );
    expect(shareUrl("linkedin", PLAIN)).toBe(
      "https://www.linkedin.com/sharing/share-offsite/?url=https%3A%2F%2Fexample.com%2F",
    );
    expect(shareUrl("whatsapp", PLAIN)).toBe(
      "https://wa.me/?text=Drive%20better%20https%3A%2F%2Fexample.com%2F",
    );
  });

  it("encodes &, spaces, # and Arabic text so the query cannot be split", () => {
    const encodedUrl = "https%3A%2F%2Fexample.com%2Far%3Futm_source%3Dshare%26x%3D1%202%23top";
    expect(shareUrl("facebook", TRICKY)).toBe(
      `https://www.facebook.com/sharer/sharer.php?u=${encodedUrl}`,
    );
    expect(shareUrl("linkedin", TRICKY)).toBe(
      `https://www.linkedin.com/sharing/share-offsite/?url=${encodedUrl}`,
    );
    const twitter = new URL(shareUrl("twitter", TRICKY));
    expect([...twitter.searchParams.keys()]).toEqual(["text", "url"]);
    expect(twitter.searchParams.get("text")).toBe(TRICKY.text);
    expect(twitter.searchParams.get("url")).toBe(TRICKY.url);
    expect(twitter.search).not.toMatch(/[ &]x=|قُد/);
  });

  it("puts text and url together in WhatsApp's one text parameter", () => {
    const whatsapp = new URL(shareUrl("whatsapp", TRICKY));
    expect(whatsapp.origin + whatsapp.pathname).toBe("https://wa.me/");
    expect([...whatsapp.searchParams.keys()]).toEqual(["text"]);
    expect(whatsapp.searchParams.get("text")).toBe(`${TRICKY.text} ${TRICKY.url}`);
  });

  it.each([...SHARE_PLATFORMS])("round-trips the page url through %s", (platform) => {
    const shared = new URL(shareUrl(platform, TRICKY));
    const values = [...shared.searchParams.values()].join(" ");
    expect(values).toContain(TRICKY.url);
    expect(shared.protocol).toBe("https:");
    expect(shared.hash).toBe("");
  });
});

describe("popupFeatures", () => {
  it("asks for a 600x400 popup", () => {
    const parsed = features(popupFeatures({}));
    expect(POPUP_SIZE).toEqual({ width: 600, height: 400 });
    expect(parsed.width).toBe("600");
    expect(parsed.height).toBe("400");
    expect(parsed.popup).toBe("yes");
  });

  it("centres the popup over the current window", () => {
    const parsed = features(
      popupFeatures({ screenX: 100, screenY: 50, outerWidth: 1400, outerHeight: 900 }),
    );
    // 100 + (1400 - 600) / 2 and 50 + (900 - 400) / 2
    expect(parsed.left).toBe("500");
    expect(parsed.top).toBe("300");
  });

  it("centres on a second monitor and rounds half pixels", () => {
    const parsed = features(
      popupFeatures({ screenX: 1920, screenY: 0, outerWidth: 1001, outerHeight: 801 }),
    );
    expect(parsed.left).toBe(String(Math.round(1920 + 401 / 2)));
    expect(parsed.top).toBe(String(Math.round(401 / 2)));
  });

  it("never places the popup off screen to the left or top", () => {
    const parsed = features(
      popupFeatures({ screenX: 0, screenY: 0, outerWidth: 320, outerHeight: 200 }),
    );
    expect(parsed.left).toBe("0");
    expect(parsed.top).toBe("0");
  });

  it("stays over a window on a monitor left of the main one", () => {
    const parsed = features(
      popupFeatures({ screenX: -1920, screenY: -200, outerWidth: 1920, outerHeight: 1080 }),
    );
    expect(parsed.left).toBe("-1260");
    expect(parsed.top).toBe("140");
  });

  it("keeps a narrow window's popup on that window's monitor", () => {
    const parsed = features(
      popupFeatures({ screenX: -400, screenY: 0, outerWidth: 320, outerHeight: 200 }),
    );
    expect(parsed.left).toBe("-400");
    expect(parsed.top).toBe("0");
  });

  it("falls back to the origin when the window's position is unknown", () => {
    const parsed = features(popupFeatures({}));
    expect(parsed.left).toBe("0");
    expect(parsed.top).toBe("0");
  });
});

describe("openSharePopup", () => {
  it("opens the url in a new window with the centred features and cuts the opener", () => {
    const popup: { opener: unknown } = { opener: "the page" };
    const open = vi.fn((_url: string, _target: string, _features: string) => popup);
    const host = { open, screenX: 0, screenY: 0, outerWidth: 1200, outerHeight: 800 };
    const url = shareUrl("facebook", PLAIN);

    expect(openSharePopup(url, host)).toBe(true);
    expect(open).toHaveBeenCalledOnce();
    expect(open).toHaveBeenCalledWith(url, "_blank", popupFeatures(host));
    expect(features(open.mock.calls[0]?.[2] ?? "")).toMatchObject({
      width: "600",
      height: "400",
      left: "300",
      top: "200",
    });
    expect(popup.opener).toBeNull();
  });

  it("returns false when the browser blocked the popup", () => {
    const open = vi.fn(() => null);
    expect(openSharePopup("https://example.com/", { open })).toBe(false);
    expect(open).toHaveBeenCalledOnce();
  });
});

describe("nativeShare", () => {
  it("is unsupported where the browser has no share sheet", async () => {
    const log = vi.fn();
    await expect(nativeShare(PLAIN, {}, log)).resolves.toBe("unsupported");
    expect(log).not.toHaveBeenCalled();
  });

  it("shares the data and reports success", async () => {
    const share = vi.fn(async () => undefined);
    const log = vi.fn();
    await expect(nativeShare(PLAIN, { share }, log)).resolves.toBe("shared");
    expect(share).toHaveBeenCalledWith(PLAIN);
    expect(log).not.toHaveBeenCalled();
  });

  it("treats an AbortError as a cancel and logs nothing", async () => {
    const share = vi.fn(async () => {
      throw new DOMException("Share canceled", "AbortError");
    });
    const log = vi.fn();
    await expect(nativeShare(PLAIN, { share }, log)).resolves.toBe("cancelled");
    expect(log).not.toHaveBeenCalled();
  });

  it("logs any other failure and reports it", async () => {
    const error = new DOMException("Not allowed", "NotAllowedError");
    const share = vi.fn(async () => {
      throw error;
    });
    const log = vi.fn();
    await expect(nativeShare(PLAIN, { share }, log)).resolves.toBe("failed");
    expect(log).toHaveBeenCalledOnce();
    expect(log).toHaveBeenCalledWith("Share failed:", error);
  });

  it("reports a thrown non-Error as a failure too", async () => {
    const share = vi.fn(() => Promise.reject("nope"));
    const log = vi.fn();
    await expect(nativeShare(PLAIN, { share }, log)).resolves.toBe("failed");
    expect(log).toHaveBeenCalledWith("Share failed:", "nope");
  });

  it("reports a rejection with no reason as a failure instead of throwing", async () => {
    const log = vi.fn();
    await expect(nativeShare(PLAIN, { share: () => Promise.reject(undefined) }, log)).resolves.toBe(
      "failed",
    );
    expect(log).toHaveBeenCalledWith("Share failed:", undefined);
  });

  it("logs to console.error by default", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const error = new TypeError("boom");
    await expect(
      nativeShare(PLAIN, {
        share: async () => {
          throw error;
        },
      }),
    ).resolves.toBe("failed");
    expect(consoleError).toHaveBeenCalledWith("Share failed:", error);
  });
});
