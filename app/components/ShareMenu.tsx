import { type MouseEvent, useEffect, useRef, useState } from "react";
import { Icon } from "~/components/Icon";
import { Tooltip } from "~/components/Tooltip";
import { useShare } from "~/hooks/use-share";
import { useUi } from "~/hooks/use-site";
import { SHARE_PLATFORMS, type SharePlatform } from "~/shared/share";

export type ShareMenuVariant = "button" | "icon";

export type ShareMenuProps = {
  siteUrl: string;
  /** Where on the page the control sits, for the social_share event ("header"…). */
  placement: string;
  /** "button": outlined with the word Share. "icon": 44x44 icon-only, named by a tooltip. */
  variant?: ShareMenuVariant;
  className?: string;
};

const SUMMARY =
  "inline-flex cursor-pointer list-none items-center gap-2 rounded-xl border border-slate-300 font-semibold hover:bg-slate-50 dark:border-ink-700 dark:hover:bg-ink-800 [&::-webkit-details-marker]:hidden";
// The header's icon controls sit side by side: the share icon looks like its neighbours.
const ICON_SUMMARY =
  "inline-flex cursor-pointer list-none items-center rounded-xl text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-ink-800 [&::-webkit-details-marker]:hidden";
const ITEM =
  "flex min-h-11 w-full items-center gap-3 rounded-lg px-3 text-start hover:bg-slate-100 dark:hover:bg-ink-800";

/**
 * A share control that works without JavaScript: a disclosure of real links to each network.
 * With JavaScript, the phone's own share sheet opens instead where there is one, the networks
 * open in a 600x400 popup, the link can be copied, and the menu closes like a menu should
 * (Escape, a click outside, a choice).
 */
export function ShareMenu({
  siteUrl,
  placement,
  variant = "button",
  className = "",
}: ShareMenuProps) {
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  const [open, setOpen] = useState(false);
  const actions = useShare({ siteUrl, placement });
  const { share } = useUi();

  useEffect(() => {
    // The menu may have been opened before hydration, when no toggle was heard.
    setOpen(detailsRef.current?.open ?? false);
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      if (detailsRef.current) detailsRef.current.open = false;
      summaryRef.current?.focus();
    };
    const onClick = (event: globalThis.MouseEvent) => {
      const details = detailsRef.current;
      if (details && !details.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, [open]);

  const close = (returnFocus: boolean) => {
    if (detailsRef.current) detailsRef.current.open = false;
    if (returnFocus) summaryRef.current?.focus();
  };

  const onSummaryClick = (event: MouseEvent<HTMLElement>) => {
    // Asked at the click, not at hydration: the sheet is the menu's replacement where it exists.
    if (typeof navigator.share !== "function") return;
    event.preventDefault();
    void actions.shareNatively();
  };

  const onPlatformClick = (platform: SharePlatform) => (event: MouseEvent<HTMLAnchorElement>) => {
    actions.openPlatform(platform, event);
    // A blocked popup still opens the link in a tab: closing the menu does not stop it.
    close(false);
  };

  const onCopy = () => {
    // The button is about to be hidden: focus goes back where the user started.
    close(true);
    void actions.copyLink();
  };

  const icon = <Icon name="share" className="size-5" />;

  return (
    <details
      ref={detailsRef}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      className={`group relative ${className}`}
    >
      {variant === "icon" ? (
        <Tooltip label={share.button} disabled={open}>
          {({ props, tooltip }) => (
            // biome-ignore lint/a11y/noStaticElementInteractions: <summary> is the disclosure's own button
            <summary
              ref={summaryRef}
              onClick={onSummaryClick}
              {...props}
              className={`${ICON_SUMMARY} relative size-11 justify-center`}
            >
              {icon}
              {tooltip}
            </summary>
          )}
        </Tooltip>
      ) : (
        // biome-ignore lint/a11y/noStaticElementInteractions: <summary> is the disclosure's own button
        <summary
          ref={summaryRef}
          onClick={onSummaryClick}
          className={`${SUMMARY} min-h-12 px-5 py-3`}
        >
          {icon}
          {share.button}
        </summary>
      )}
      <ul
        aria-label={share.menuLabel}
        className="absolute end-0 z-30 mt-2 w-56 rounded-xl border border-slate-200 bg-white p-1 shadow-xl dark:border-ink-700 dark:bg-ink-900"
      >
        {SHARE_PLATFORMS.map((platform) => (
          <li key={platform}>
            <a
              href={actions.hrefFor(platform)}
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
        {actions.canCopy ? (
          <li>
            <button type="button" onClick={onCopy} className={`${ITEM} cursor-pointer`}>
              <Icon name="copy" className="size-5" />
              {share.copyLink}
            </button>
          </li>
        ) : null}
      </ul>
    </details>
  );
}
