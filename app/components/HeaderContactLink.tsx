import { Icon } from "~/components/Icon";
import { tooltipProps } from "~/components/Tooltip";
import { useLeadContext } from "~/hooks/use-lead-context";
import { type CtaType, thankYouHref } from "~/shared/cta";
import type { IconName } from "~/shared/icons";

/**
 * The header's icon-only e-mail and WhatsApp links: the same addresses and events as CtaLink
 * gives the page's CTAs, without its general machinery, which the header (the one part of the
 * page that always runs in the browser) would otherwise carry in the bundle.
 */
export function HeaderContactLink({
  cta,
  href,
  label,
  icon,
}: {
  cta: Extract<CtaType, "email" | "whatsapp">;
  /** The mailto: or wa.me address, which /thank-you leads on to. */
  href: string;
  /** The link's name, shown in its tooltip too. */
  label: string;
  icon: IconName;
}) {
  const to = thankYouHref({
    ...useLeadContext(),
    cta,
    redirect: cta === "email" ? undefined : href,
    placement: "header",
  });
  return (
    // Its address says its event and placement (analytics/link-clicks.ts, linkEvent).
    <a href={to} {...tooltipProps(label)} className="icon-button">
      <Icon name={icon} className="size-5" />
    </a>
  );
}
