import { Icon } from "~/components/Icon";
import { useLeadContext } from "~/hooks/use-lead-context";
import { thankYouHref } from "~/lib/cta";
import { eventAttributes } from "~/lib/link-clicks";

/**
 * The phone menu's call to action: WhatsApp, the main route, as a lead link through /thank-you
 * like every other WhatsApp CTA, reporting its clicks as placed in the "menu".
 */
export function MenuCta({
  label,
  href,
  onNavigate,
}: {
  label: string;
  /** The wa.me address, which /thank-you leads on to. */
  href: string;
  /** Closes the menu, so it is not still open on coming Back. */
  onNavigate: () => void;
}) {
  const to = thankYouHref({ ...useLeadContext(), cta: "whatsapp", redirect: href });
  return (
    <a
      href={to}
      onClick={onNavigate}
      {...eventAttributes("external_link_click", "menu")}
      className="inline-flex min-h-12 items-center justify-center gap-2 rounded-xl bg-road-700 px-5 py-3 text-base font-semibold text-white shadow-lg shadow-road-700/25 transition-colors hover:bg-road-600 dark:bg-road-500 dark:text-ink-950 dark:hover:bg-road-600"
    >
      <Icon name="whatsapp" className="size-5" />
      {label}
    </a>
  );
}
