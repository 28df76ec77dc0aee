import { CtaLink } from "~/components/CtaLink.server";
import { useCopy } from "~/hooks/use-copy.server";
import { useSite } from "~/hooks/use-site";
import { contactHref } from "~/shared/cta";
import { STICKY_ACTION_ID } from "~/shared/landing-ids";

/**
 * The hero's main action again, in a bar at the foot of a phone's screen (a static part): shown
 * by hooks/use-sticky-action.ts once the hero's button has scrolled away, gone while the download
 * section, the closing call or the footer is on screen, never on wide screens (`sticky-action`
 * in tailwind.css). Its clicks are reported with their own placement, "sticky". First in the
 * page's order, so a keyboard reaches it right after the header whenever it shows.
 */
export function StickyAction() {
  const { contact, heroCtas } = useCopy();
  const site = useSite();
  const main = heroCtas[0];
  return (
    <div id={STICKY_ACTION_ID} className="sticky-action">
      <CtaLink
        placement="sticky"
        icon={main.icon}
        variant="whatsapp"
        className="w-full"
        cta={{
          text: main.text,
          ctaType: main.ctaType,
          arrow: main.arrow,
          href: contactHref(main.ctaType, site, contact),
          external: true,
        }}
      />
    </div>
  );
}
