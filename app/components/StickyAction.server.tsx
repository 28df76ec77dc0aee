import { ContactCtaLink } from "~/components/CtaLink.server";
import { ShortLabel } from "~/components/ShortLabel.server";
import { useCopy } from "~/hooks/use-copy.server";
import { STICKY_ACTION_ID } from "~/shared/landing-ids";

/**
 * The hero's main action again, in a bar at the foot of a phone's screen (a static part): shown
 * by hooks/use-sticky-action.ts once the hero's button has scrolled away, gone while the download
 * section, the closing call or the footer is on screen, never on wide screens (`sticky-action`
 * in tailwind.css). Its clicks are reported with their own placement, "sticky". First in the
 * page's order, so a keyboard reaches it right after the header whenever it shows. One line on
 * the smallest phones too: there it says the label's start (components/ShortLabel.server.tsx).
 */
export function StickyAction() {
  const { heroCtas, landing } = useCopy();
  const [main] = heroCtas;
  return (
    <div id={STICKY_ACTION_ID} className="sticky-action">
      <ContactCtaLink {...main} placement="sticky" variant="whatsapp" className="w-full">
        <ShortLabel text={main.text} short={landing.hero.mainActionShort} />
      </ContactCtaLink>
    </div>
  );
}
