import { type MouseEvent, useEffect, useState } from "react";
import { track } from "~/analytics/queue.client";
import { openSharePopup } from "~/share/share";
import { copyLink } from "~/share/share-menu";
import { shareNatively, useShareLinks } from "~/share/use-share-links";
import type { SharePlatform } from "~/shared/share-platforms";

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
  const { share, linkFor, data, hrefFor } = useShareLinks(siteUrl, text);
  const [canCopy, setCanCopy] = useState(false);
  const [canShareNatively, setCanShareNatively] = useState(false);
  useEffect(() => {
    setCanCopy(typeof navigator.clipboard?.writeText === "function");
    setCanShareNatively(typeof navigator.share === "function");
  }, []);

  return {
    canCopy,
    canShareNatively,
    linkFor,
    hrefFor,
    /** A network's link: a 600x400 popup where allowed, else the link opens as it is. */
    openPlatform(platform: SharePlatform, event: MouseEvent<HTMLAnchorElement>) {
      if (openSharePopup(event.currentTarget.href, window)) event.preventDefault();
      track("social_share", { method: platform, placement });
    },
    copyLink: () => copyLink(linkFor("copy"), placement, share),
    shareNatively: () => shareNatively(data("native"), placement),
  };
}
