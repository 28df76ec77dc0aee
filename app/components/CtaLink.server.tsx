import { ArrowRight, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Icon as SpriteIcon } from "~/components/Icon";
import { PageLink } from "~/components/PageLink";
import { Tooltip, type TooltipTriggerProps } from "~/components/Tooltip";
import { useLeadContext } from "~/hooks/use-lead-context";
import { type CtaSpec, resolveCta } from "~/shared/cta";
import type { IconName } from "~/shared/icons";
import { eventAttributes } from "~/shared/link-clicks";

export type CtaVariant =
  | "primary"
  | "whatsapp"
  | "secondary"
  | "onDark"
  | "ghost"
  | "icon"
  | "inline";

const BUTTON = "min-h-12 justify-center rounded-xl px-5 py-3 text-base font-semibold";

const VARIANTS: Record<CtaVariant, string> = {
  primary: `${BUTTON} bg-road-700 text-white shadow-lg shadow-road-700/25 hover:bg-road-600 dark:bg-road-500 dark:text-ink-950 dark:hover:bg-road-600`,
  // WhatsApp's green, for the one main action that opens it; ink text keeps 9:1 contrast.
  whatsapp: `${BUTTON} bg-[#25d366] text-ink-950 shadow-lg shadow-black/20 hover:bg-[#1fbf5a]`,
  secondary: `${BUTTON} border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-ink-700 dark:bg-ink-900 dark:text-white dark:hover:bg-ink-800`,
  // A lighter action on the brand's dark bands (the hero, the closing call).
  onDark: `${BUTTON} border border-white/30 text-white hover:bg-white/10`,
  ghost: `${BUTTON} text-slate-900 underline-offset-4 hover:underline dark:text-white`,
  icon: "size-11 justify-center rounded-xl text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-ink-800",
  inline: "min-h-11 underline-offset-4 hover:underline",
};

export type CtaLinkProps = {
  cta: CtaSpec;
  /** Where on the page the link sits, for the click event ("hero", "footer"…). */
  placement: string;
  /** A lucide icon, drawn here, or a mark from the page's sprite, by name. */
  icon?: LucideIcon | IconName;
  variant?: CtaVariant;
  className?: string;
  children?: ReactNode;
  /** For icon-only links: the accessible name (the visible text is left out). */
  label?: string;
  id?: string;
};

/**
 * A call to action that works as a plain link; with JavaScript the document's click listener
 * also reports the click (hooks/use-link-clicks.ts), so the same markup works in a static part.
 * Links into /thank-you are full page loads so the server counts the lead and the delayed
 * redirect runs once. The source is the URL's, as the server sees it; the listener corrects it
 * to the visit's at the click.
 */
export function CtaLink({
  cta,
  placement,
  icon: Icon,
  variant = "primary",
  className = "",
  children,
  label,
  id,
}: CtaLinkProps) {
  const resolved = resolveCta(cta, { ...useLeadContext(), placement });
  const iconSize = variant === "inline" ? "size-4 shrink-0" : "size-5 shrink-0";
  const classes = `inline-flex items-center gap-2 transition-colors ${VARIANTS[variant]} ${className}`;
  const content = (
    <>
      {typeof Icon === "string" ? (
        // A brand mark takes the button's text colour (server/icons.server.tsx, `--mark`).
        <SpriteIcon name={Icon} className={`${iconSize} [--mark:currentColor]`} />
      ) : Icon ? (
        <Icon aria-hidden="true" className={iconSize} />
      ) : null}
      {label ? null : <span>{children ?? cta.text}</span>}
      {cta.arrow ? (
        <ArrowRight aria-hidden="true" className="size-4 shrink-0 rtl:-scale-x-100" />
      ) : null}
    </>
  );
  const render = (trigger: Partial<TooltipTriggerProps> = {}, tooltip: ReactNode = null) => {
    const shared = {
      id,
      className: tooltip ? `relative ${classes}` : classes,
      "aria-label": label,
      ...trigger,
      ...(resolved.event ? eventAttributes(resolved.event.name, placement) : {}),
    };
    return resolved.kind === "internal" ? (
      <PageLink to={resolved.href} {...shared}>
        {content}
        {tooltip}
      </PageLink>
    ) : (
      <a
        href={resolved.href}
        {...shared}
        target={resolved.newTab ? "_blank" : undefined}
        rel={resolved.newTab ? "noopener noreferrer" : undefined}
      >
        {content}
        {tooltip}
      </a>
    );
  };
  // An icon-only link says what it is in a tooltip too, not only to screen readers.
  if (variant === "icon" && label) {
    return <Tooltip label={label}>{({ props, tooltip }) => render(props, tooltip)}</Tooltip>;
  }
  return render();
}
