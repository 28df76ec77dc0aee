import { ContactCtaLink } from "~/components/CtaLink.server";
import { useCopy } from "~/hooks/use-copy.server";

/**
 * The phone menu's call to action (a static part inside the header's menu): WhatsApp, the main
 * route, as a lead link through /thank-you like the hero's, reporting its clicks as placed in
 * the "menu".
 */
export function MenuCta() {
  const { landing } = useCopy();
  return (
    <ContactCtaLink
      placement="menu"
      icon="brand-whatsapp"
      variant="whatsapp"
      // Two balanced, centred lines where the sheet is narrow.
      className="w-full text-center text-balance"
      ctaType="whatsapp"
      text={landing.nav.menuCta}
    />
  );
}
