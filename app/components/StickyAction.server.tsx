import { ContactCtaLink } from "~/components/CtaLink.server";
import { useCopy } from "~/hooks/use-copy.server";
import { STICKY_ACTION_ID } from "~/landing/landing-ids";

/**
 * The hero's main action again, in a bar at the foot of a phone's screen (a static part): shown
 * by hooks/use-sticky-action.ts once the hero's button has scrolled away, gone while the download
 * section, the closing call or the footer is on screen, never on wide screens (`sticky-action`
 * in tailwind.css). Its clicks are reported with their own placement, "sticky". First in the
 * page's order, so a keyboard reaches it right after the header whenever it shows.
 */
export function StickyAction() {
  const [main] = useCopy().heroCtas;
  return (
    <div id={STICKY_ACTION_ID} className="sticky-action">
      <ContactCtaLink {...main} placement="sticky" variant="whatsapp" className="w-full" />
    </div>
  );
}
