import { track } from "~/analytics/queue.client";
import { useLocale, useUi } from "~/hooks/use-site";
import { type NativeShareResult, nativeShare, shareUrl } from "~/share/share";
import { localePath } from "~/shared/locale";
import type { SharePlatform } from "~/shared/share-platforms";

// Apart from use-share.ts, whose actions (share/share-menu.ts) the header's share menu loads
// only when a visitor reaches for it: a module's imports come with it, used or not.

type Method = SharePlatform | "native" | "copy";

/**
 * The links every share control offers, with `text` as the message (the page language's
 * default share text when unset). Each way of sharing tags the link with its own source, so the
 * visits it brings are counted.
 */
export function useShareLinks(siteUrl: string, text?: string) {
  const { share } = useUi();
  const home = localePath(useLocale(), "/");
  const linkFor = (method: Method) =>
    `${siteUrl}${home}?source=${method === "native" ? "share" : method}`;
  const data = (method: Method) => ({
    title: share.title,
    text: text ?? share.text,
    url: linkFor(method),
  });
  return {
    share,
    linkFor,
    data,
    hrefFor: (platform: SharePlatform) => shareUrl(platform, data(platform)),
  };
}

/**
 * The phone's own share sheet, reporting social_share when something was shared. Call it in
 * the click's handler: the sheet needs the visitor's gesture.
 */
export async function shareNatively(
  data: ReturnType<ReturnType<typeof useShareLinks>["data"]>,
  placement: string,
): Promise<NativeShareResult> {
  const result = await nativeShare(data, navigator);
  if (result === "shared") track("social_share", { method: "native", placement });
  return result;
}
