import { CtaLink } from "~/components/CtaLink.server";
import { useCopy } from "~/hooks/use-copy.server";
import { useSite } from "~/hooks/use-site";
import { contactHref } from "~/shared/cta";

/**
 * The phone menu's call to action (a static part inside the header's menu): WhatsApp, the main
 * route, as a lead link through /thank-you like the hero's, reporting its clicks as placed in
 * the "menu".
 */
export function MenuCta() {
  const { contact, landing } = useCopy();
  const site = useSite();
  return (
    <CtaLink
      placement="menu"
      icon="brand-whatsapp"
      variant="whatsapp"
      // Two balanced, centred lines where the sheet is narrow.
      className="w-full text-center text-balance"
      cta={{
        text: landing.nav.menuCta,
        ctaType: "whatsapp",
        href: contactHref("whatsapp", site, contact),
        external: true,
      }}
    />
  );
}
