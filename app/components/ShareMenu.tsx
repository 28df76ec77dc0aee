import { Share2 } from "lucide-react";
import type { MouseEvent } from "react";
import { share } from "~/content/share";
import { track } from "~/lib/analytics.client";
import {
  nativeShare,
  openSharePopup,
  SHARE_PLATFORMS,
  type SharePlatform,
  shareUrl,
} from "~/lib/share";

/**
 * A share control that works without JavaScript: a disclosure of real links to each network.
 * With JavaScript, the phone's own share sheet opens instead where there is one, and the
 * networks open in a 600x400 popup.
 */
export function ShareMenu({
  siteUrl,
  placement,
  className = "",
}: {
  siteUrl: string;
  placement: string;
  className?: string;
}) {
  const data = (platform: SharePlatform | "native") => ({
    title: share.title,
    text: share.text,
    url: `${siteUrl}/?source=${platform === "native" ? "share" : platform}`,
  });

  const onSummaryClick = async (event: MouseEvent<HTMLElement>) => {
    if (typeof navigator.share !== "function") return;
    event.preventDefault();
    const result = await nativeShare(data("native"), navigator);
    if (result === "shared") track("social_share", { method: "native", placement });
  };

  const onPlatformClick = (platform: SharePlatform) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (openSharePopup(event.currentTarget.href, window)) event.preventDefault();
    track("social_share", { method: platform, placement });
  };

  return (
    <details className={`group relative ${className}`}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: <summary> is the disclosure's own button */}
      <summary
        onClick={onSummaryClick}
        className="inline-flex min-h-12 cursor-pointer list-none items-center gap-2 rounded-xl border border-slate-300 px-5 py-3 font-semibold hover:bg-slate-50 dark:border-ink-700 dark:hover:bg-ink-800 [&::-webkit-details-marker]:hidden"
      >
        <Share2 aria-hidden="true" className="size-5" />
        {share.button}
      </summary>
      <ul
        aria-label={share.menuLabel}
        className="absolute end-0 z-30 mt-2 w-56 rounded-xl border border-slate-200 bg-white p-1 shadow-xl dark:border-ink-700 dark:bg-ink-900"
      >
        {SHARE_PLATFORMS.map((platform) => (
          <li key={platform}>
            <a
              href={shareUrl(platform, data(platform))}
              target="_blank"
              rel="noopener noreferrer"
              onClick={onPlatformClick(platform)}
              className="flex min-h-11 items-center rounded-lg px-3 hover:bg-slate-100 dark:hover:bg-ink-800"
            >
              {share.platforms[platform]}
              <span className="sr-only"> {share.opensInNewWindow}</span>
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
