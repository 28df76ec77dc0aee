import { type MouseEvent, useEffect, useRef } from "react";
import { track } from "~/analytics/queue.client";
import { Icon } from "~/components/Icon";
import { tooltipProps } from "~/components/Tooltip";
import { openSharePopup } from "~/share/share";
import { shareNatively, useShareLinks } from "~/share/use-share-links";
import { SHARE_PLATFORMS, type SharePlatform } from "~/shared/share-platforms";

export type ShareMenuVariant = "button" | "icon";

export type ShareMenuProps = {
  siteUrl: string;
  /** Where on the page the control sits, for the social_share event ("header"…). */
  placement: string;
  /** "button": outlined with the word Share. "icon": 44x44 icon-only, named by a tooltip. */
  variant?: ShareMenuVariant;
  className?: string;
};

// The header's icon controls sit side by side: the share icon looks like its neighbours.
const SUMMARY = { button: "disclosure share-button", icon: "disclosure icon-button" };
const ITEM = "share-item";

let enhancement: Promise<typeof import("~/share/share-menu")> | undefined;

/**
 * A share control that works without JavaScript: a disclosure of real links to each network.
 * With JavaScript, the phone's own share sheet opens instead where there is one, the networks
 * open in a 600x400 popup, the link can be copied, and the menu closes like a menu should
 * (Escape, a click outside, a choice).
 *
 * Only the links, the popup and the share sheet are here. The rest (share/share-menu.ts) loads
 * when a visitor reaches for the menu: a pointer on it, focus in it, a press, or the menu
 * opening (docs/decisions/009-code-on-intent.md). The copy item comes with it.
 */
export function ShareMenu({
  siteUrl,
  placement,
  variant = "button",
  className = "",
}: ShareMenuProps) {
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const { share, data, hrefFor, linkFor } = useShareLinks(siteUrl);
  const icon = variant === "icon";

  const reach = () => {
    enhancement ??= import("~/share/share-menu");
    // Not come (offline): the links still work; the next sign of intent asks again.
    enhancement.then(
      (menu) => {
        const copy = { url: linkFor("copy"), placement, words: share, itemClass: ITEM };
        if (detailsRef.current) menu.enhanceMenu(detailsRef.current, copy);
      },
      () => {
        enhancement = undefined;
      },
    );
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after hydration
  useEffect(() => {
    // Opened before hydration, when nothing heard it.
    if (detailsRef.current?.open) reach();
  }, []);

  const onSummaryClick = (event: MouseEvent<HTMLElement>) => {
    // Asked at the click, not at hydration: the sheet is the menu's replacement where it exists.
    if (typeof navigator.share !== "function") return;
    event.preventDefault();
    void shareNatively(data("native"), placement);
  };

  const onPlatformClick = (platform: SharePlatform) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (openSharePopup(event.currentTarget.href, window)) event.preventDefault();
    track("social_share", { method: platform, placement });
    // A blocked popup still opens the link in a tab: closing the menu does not stop it.
    if (detailsRef.current) detailsRef.current.open = false;
  };

  return (
    <details
      ref={detailsRef}
      onPointerEnter={reach}
      onPointerDown={reach}
      onFocus={reach}
      onToggle={reach}
      className={`group relative ${className}`}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: <summary> is the disclosure's own button */}
      <summary
        onClick={onSummaryClick}
        {...(icon ? tooltipProps(share.button) : null)}
        className={SUMMARY[variant]}
      >
        <Icon name="share" className="size-5" />
        {icon ? null : share.button}
      </summary>
      <ul aria-label={share.menuLabel} className="share-list">
        {SHARE_PLATFORMS.map((platform) => (
          <li key={platform}>
            <a
              href={hrefFor(platform)}
              target="_blank"
              rel="noopener noreferrer"
              onClick={onPlatformClick(platform)}
              className={ITEM}
            >
              <Icon name={`brand-${platform}`} className="size-5" />
              {share.platforms[platform]}
              <span className="sr-only"> {share.opensInNewWindow}</span>
            </a>
          </li>
        ))}
        {/* Copy link joins the list with the menu's code: share/share-menu.ts. */}
      </ul>
    </details>
  );
}
