import { CtaLink } from "~/components/CtaLink.server";
import { useCopy } from "~/hooks/use-copy.server";
import { useSite } from "~/hooks/use-site";
import { contactHref } from "~/shared/cta";

/** WhatsApp and e-mail, the closing contact routes (a static part). */
export function GetStartedCtas() {
  const { contact, getStarted } = useCopy();
  const site = useSite();
  return (
    <>
      <CtaLink
        placement="get-started"
        icon="brand-whatsapp"
        variant="whatsapp"
        cta={{
          text: getStarted.app,
          ctaType: "whatsapp",
          external: true,
          arrow: true,
          href: contactHref("whatsapp", site, contact),
        }}
      />
      <CtaLink
        placement="get-started"
        variant="onDark"
        icon="mail"
        cta={{
          text: getStarted.email,
          ctaType: "email",
          href: contactHref("email", site, contact),
        }}
      />
    </>
  );
}
