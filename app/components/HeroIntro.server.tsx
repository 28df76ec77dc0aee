import { ShieldCheck } from "lucide-react";
import { ContactCtaLink } from "~/components/CtaLink.server";
import { InlineIcon } from "~/components/InlineIcon.server";
import { PageLink } from "~/components/PageLink";
import { ShortLabel } from "~/components/ShortLabel.server";
import { useCopy } from "~/hooks/use-copy.server";
import { useLocale } from "~/hooks/use-site";
import { HERO_MAIN_ACTION_ID } from "~/shared/landing-ids";
import { localePath } from "~/shared/locale";

/**
 * The hero's badge, headline, lead and contact routes (a static part): one main action, for
 * WhatsApp, where the beta's download link comes from, with what happens after the tap under it
 * and a quiet link to the privacy notice; e-mail and the demo beside it, lighter.
 */
export function HeroIntro() {
  const { heroCtas, landing } = useCopy();
  const locale = useLocale();
  const copy = landing.hero;
  const [main, ...others] = heroCtas;
  return (
    <>
      <p className="hero-badge">
        <InlineIcon icon={ShieldCheck} className="size-4" />
        {copy.badge}
      </p>
      <h1 id="hero-heading" className="hero-title">
        {copy.headline}
      </h1>
      <p className="max-w-2xl text-slate-300 sm:text-xl">{copy.lead}</p>
      <div className="flex flex-col gap-2.5 sm:flex-row sm:flex-wrap">
        <ContactCtaLink
          {...main}
          id={HERO_MAIN_ACTION_ID}
          placement="hero"
          variant="whatsapp"
          className="min-h-14 sm:text-lg"
        >
          <ShortLabel text={main.text} short={copy.mainActionShort} />
        </ContactCtaLink>
        {/* Under the main action on a phone; under the row of actions where they sit side by side. */}
        <p id="hero-next" className="hero-next">
          {copy.next}{" "}
          <PageLink to={localePath(locale, "/privacy")} className="hero-privacy">
            {copy.privacy}
          </PageLink>
        </p>
        <div className="grid grid-cols-2 gap-2.5 sm:flex">
          {others.map((cta) => (
            <ContactCtaLink
              {...cta}
              key={cta.ctaType}
              placement="hero"
              variant="onDark"
              className="max-sm:min-h-11 max-sm:px-3 max-sm:text-sm"
            />
          ))}
        </div>
      </div>
    </>
  );
}
