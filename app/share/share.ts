/**
 * Passing the site on: the native share sheet where the browser has one, else a 600x400 popup
 * per network (docs/product.md, Behaviour and Constants). Every network is also a real link, so sharing works without JS.
 */
import type { SharePlatform } from "~/shared/share-platforms";

export type ShareData = { url: string; text: string; title: string };

export const POPUP_SIZE = { width: 600, height: 400 } as const;

export function shareUrl(platform: SharePlatform, data: ShareData): string {
  const url = encodeURIComponent(data.url);
  const text = encodeURIComponent(data.text);
  switch (platform) {
    case "facebook":
      return `https://www.facebook.com/sharer/sharer.php?u=${url}`;
    case "twitter":
      return `https://twitter.com/intent/tweet?text=${text}&url=${url}`;
    case "linkedin":
      return `https://www.linkedin.com/sharing/share-offsite/?url=${url}`;
    case "whatsapp":
      return `https://wa.me/?text=${encodeURIComponent(`${data.text} ${data.url}`)}`;
  }
}

type PopupHost = {
  open: (url: string, target: string, features: string) => { opener: unknown } | null;
  screenX?: number;
  screenY?: number;
  outerWidth?: number;
  outerHeight?: number;
};

/**
 * The popup's window features: centred over the current window, but never past its top-left
 * corner, so it stays on the same monitor (whose coordinates may be negative).
 */
export function popupFeatures(host: Omit<PopupHost, "open">): string {
  const { width, height } = POPUP_SIZE;
  const x = host.screenX ?? 0;
  const y = host.screenY ?? 0;
  const left = Math.max(x, Math.round(x + ((host.outerWidth ?? width) - width) / 2));
  const top = Math.max(y, Math.round(y + ((host.outerHeight ?? height) - height) / 2));
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}

/**
 * Opens the network's share page in a popup. False when the browser blocked it, so the caller
 * lets the link open normally instead.
 */
export function openSharePopup(url: string, host: PopupHost): boolean {
  const popup = host.open(url, "_blank", popupFeatures(host));
  if (!popup) return false;
  // The share page must not be able to navigate this one.
  popup.opener = null;
  return true;
}

export type NativeShareResult = "shared" | "cancelled" | "failed" | "unsupported";

type ShareHost = { share?: (data: ShareData) => Promise<void> };

/** docs/product.md, Behaviour: a failed native share is logged to the console only; a cancel is not a failure. */
export async function nativeShare(
  data: ShareData,
  host: ShareHost,
  log: (...args: unknown[]) => void = console.error,
): Promise<NativeShareResult> {
  if (typeof host.share !== "function") return "unsupported";
  try {
    await host.share(data);
    return "shared";
  } catch (error) {
    if (error instanceof Error && error.name === "AbortError") return "cancelled";
    log("Share failed:", error);
    return "failed";
  }
}
