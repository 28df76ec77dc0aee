import { ShieldCheck, Star, Users } from "lucide-react";
import { Countdown } from "~/components/Countdown";
import { CtaLink } from "~/components/CtaLink";
import { PhoneMockup } from "~/components/PhoneMockup";
import { contact, heroCtas } from "~/content/conversion";
import { landing } from "~/content/landing";
import { useSite } from "~/hooks/use-site";
import { contactHref } from "~/lib/cta";
import { formatDecimal } from "~/lib/format";

export function Hero() {
  const copy = landing.hero;
  const site = useSite();
  return (
    <section
      id="hero"
      aria-labelledby="hero-heading"
      className="bg-gradient-to-b from-sand-100 to-white dark:from-ink-900 dark:to-ink-950"
    >
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-5 pt-10 pb-16 sm:pt-16 lg:grid-cols-[1fr_auto] lg:pb-24">
        <div className="flex min-w-0 flex-col gap-6">
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
          <p className="max-w-2xl text-lg text-slate-700 sm:text-xl dark:text-slate-300">
            {copy.lead}
          </p>
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
          <div className="rounded-2xl border border-slate-200 bg-white/70 p-4 dark:border-ink-800 dark:bg-ink-900/70">
            <p className="text-sm font-semibold text-slate-700 dark:text-slate-300">
              {copy.countdownLabel}
            </p>
            <Countdown betaClosesAt={site.betaClosesAt} />
            <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">{copy.deadlineNote}</p>
          </div>
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm font-medium text-slate-700 dark:text-slate-300">
            <li className="flex items-center gap-2">
              <Users aria-hidden="true" className="size-4 text-road-700 dark:text-road-500" />
              {copy.socialProof}
            </li>
            <li className="flex items-center gap-2">
              <Star aria-hidden="true" className="size-4 fill-sand-500 text-sand-500" />
              <span>
                {copy.rating.before}{" "}
                <span className="font-bold text-slate-900 dark:text-white">
                  {formatDecimal(copy.rating.value)}
                </span>{" "}
                {copy.rating.after(copy.rating.count)}
              </span>
            </li>
          </ul>
        </div>
        <PhoneMockup />
      </div>
    </section>
  );
}
