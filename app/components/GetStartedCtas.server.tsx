import { ContactCtaLink } from "~/components/CtaLink.server";
import { useCopy } from "~/hooks/use-copy.server";

/** WhatsApp and e-mail, the closing contact routes (a static part). */
export function GetStartedCtas() {
  const { getStarted } = useCopy();
  return (
    <>
      <ContactCtaLink
        placement="get-started"
        icon="brand-whatsapp"
        variant="whatsapp"
        ctaType="whatsapp"
        text={getStarted.app}
        arrow
      />
      <ContactCtaLink
        placement="get-started"
        variant="onDark"
        icon="mail"
        ctaType="email"
        text={getStarted.email}
      />
    </>
  );
}
