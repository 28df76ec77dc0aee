import { type MouseEvent, useEffect, useState } from "react";
import { track } from "~/browser/analytics.client";
import { toast } from "~/browser/toast";
import { useLocale, useUi } from "~/hooks/use-site";
import { localePath } from "~/shared/locale";
import {
  type NativeShareResult,
  nativeShare,
  openSharePopup,
  type SharePlatform,
  shareUrl,
} from "~/shared/share";

type Method = SharePlatform | "native" | "copy";

/**
 * The share actions every share control offers, reporting social_share with where it sits.
 * Copying and the share sheet need script, so they report themselves available only after
 * hydration: the server's page never shows a button that cannot work.
 */
export function useShare({
  siteUrl,
  placement,
  text,
}: {
  siteUrl: string;
  placement: string;
  /** The message; the page language's default share text when unset. */
  text?: string;
}) {
  const { share } = useUi();
  const home = localePath(useLocale(), "/");
  const [canCopy, setCanCopy] = useState(false);
  const [canShareNatively, setCanShareNatively] = useState(false);
  useEffect(() => {
    setCanCopy(typeof navigator.clipboard?.writeText === "function");
    setCanShareNatively(typeof navigator.share === "function");
  }, []);

  // Each way of sharing tags the link with its own source, so the visits it brings are counted.
  const linkFor = (method: Method) =>
    `${siteUrl}${home}?source=${method === "native" ? "share" : method}`;
  const data = (method: Method) => ({
    title: share.title,
    text: text ?? share.text,
    url: linkFor(method),
  });

  return {
    canCopy,
    canShareNatively,
    linkFor,
    hrefFor: (platform: SharePlatform) => shareUrl(platform, data(platform)),
    /** A network's link: a 600x400 popup where allowed, else the link opens as it is. */
    openPlatform(platform: SharePlatform, event: MouseEvent<HTMLAnchorElement>) {
      if (openSharePopup(event.currentTarget.href, window)) event.preventDefault();
      track("social_share", { method: platform, placement });
    },
    async copyLink(): Promise<void> {
      try {
        await navigator.clipboard.writeText(linkFor("copy"));
      } catch (error) {
        console.error("Copy failed:", error);
        toast(share.copyFailed);
        return;
      }
      toast(share.copied);
      track("social_share", { method: "copy", placement });
    },
    async shareNatively(): Promise<NativeShareResult> {
      const result = await nativeShare(data("native"), navigator);
      if (result === "shared") track("social_share", { method: "native", placement });
      return result;
    },
  };
}
