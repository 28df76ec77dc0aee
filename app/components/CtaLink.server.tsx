import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { eventAttributes } from "~/analytics/link-clicks";
import { Icon as SpriteIcon } from "~/components/Icon";
import { InlineIcon } from "~/components/InlineIcon.server";
import { PageLink } from "~/components/PageLink";
import { useCopy } from "~/hooks/use-copy.server";
import { useLeadContext } from "~/hooks/use-lead-context";
import { useSite } from "~/hooks/use-site";
import { type CtaSpec, type CtaType, contactHref, resolveCta } from "~/shared/cta";
import type { IconName } from "~/shared/icons";

export type CtaVariant = "primary" | "whatsapp" | "secondary" | "onDark" | "inline";

/**
 * Each look is a class of tailwind.css (`btn-*`), not a string of utilities: a page carries a
 * dozen of these links, and the same 200 characters each time weighed on every document.
 */
const VARIANTS: Record<CtaVariant, string> = {
  primary: "btn btn-primary",
  whatsapp: "btn btn-whatsapp",
  secondary: "btn btn-secondary",
  onDark: "btn btn-on-dark",
  inline: "link-cta",
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
  id,
}: CtaLinkProps) {
  const resolved = resolveCta(cta, { ...useLeadContext(), placement });
  const iconSize = variant === "inline" ? "size-4" : "size-5";
  const classes = `${VARIANTS[variant]} ${className}`;
  const content = (
    <>
      {typeof Icon === "string" ? (
        // A brand mark takes the button's text colour (components/icons.server.tsx, `--mark`).
        <SpriteIcon name={Icon} className={`${iconSize} [--mark:currentColor]`} />
      ) : Icon ? (
        <InlineIcon icon={Icon} className={iconSize} />
      ) : null}
      <span>{children ?? cta.text}</span>
      {cta.arrow ? <SpriteIcon name="arrow-right" className="size-4 rtl:-scale-x-100" /> : null}
    </>
  );
  const shared = {
    id,
    className: classes,
    // A lead link's address says its event and placement (analytics/link-clicks.ts, linkEvent),
    // for the lead too: not said twice.
    ...(resolved.event && !resolved.viaThankYou
      ? eventAttributes(resolved.event.name, placement)
      : {}),
  };
  return resolved.kind === "internal" ? (
    <PageLink to={resolved.href} {...shared}>
      {content}
    </PageLink>
  ) : (
    <a
      href={resolved.href}
      {...shared}
      target={resolved.newTab ? "_blank" : undefined}
      rel={resolved.newTab ? "noopener noreferrer" : undefined}
    >
      {content}
    </a>
  );
}

/**
 * A call to one of the contact routes (WhatsApp, e-mail, the demo) at the address the settings
 * give, with the page's message; all but e-mail open outside the site.
 */
export function ContactCtaLink({
  ctaType,
  text,
  arrow,
  ...link
}: Omit<CtaLinkProps, "cta"> & { ctaType: CtaType; text: string; arrow?: boolean }) {
  const { contact } = useCopy();
  const site = useSite();
  const href = contactHref(ctaType, site, contact);
  return <CtaLink {...link} cta={{ text, ctaType, arrow, href, external: ctaType !== "email" }} />;
}
