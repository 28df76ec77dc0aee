import { ShieldCheck } from "lucide-react";
import { CtaLink } from "~/components/CtaLink.server";
import { useCopy } from "~/hooks/use-copy.server";
import { useSite } from "~/hooks/use-site";
import { contactHref } from "~/shared/cta";

/** The hero's badge, headline, lead and the three contact routes (a static part). */
export function HeroIntro() {
  const { contact, heroCtas, landing } = useCopy();
  const copy = landing.hero;
  const site = useSite();
  return (
    <>
      <p className="inline-flex w-fit items-center gap-2 rounded-full bg-ink-900 px-3 py-1 text-sm font-semibold text-white dark:bg-road-500 dark:text-ink-950">
        <ShieldCheck aria-hidden="true" className="size-4" />
        {copy.badge}
      </p>
      <h1
        id="hero-heading"
        className="max-w-3xl text-4xl leading-tight font-extrabold tracking-tight text-balance sm:text-6xl"
      >
        {copy.headline}
      </h1>
      <p className="max-w-2xl text-lg text-slate-700 sm:text-xl dark:text-slate-300">{copy.lead}</p>
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        {heroCtas.map((cta, index) => (
          <CtaLink
            key={cta.ctaType}
            placement="hero"
            icon={cta.icon}
            variant={index === 0 ? "primary" : "secondary"}
            cta={{
              text: cta.text,
              ctaType: cta.ctaType,
              arrow: cta.arrow,
              href: contactHref(cta.ctaType, site, contact),
              external: cta.ctaType !== "email",
            }}
          />
        ))}
      </div>
    </>
  );
}
