import { useLocation } from "@remix-run/react";
import { ArrowRight, Map as MapIcon, MessageCircle } from "lucide-react";
import { CtaLink } from "~/components/CtaLink";
import { PageLink } from "~/components/PageLink";
import type { Copy } from "~/content/copy.server";
import { useLocale, useSite, useUi } from "~/hooks/use-site";
import { attributionFrom, campaignSearch } from "~/lib/attribution";
import { contactHref } from "~/lib/cta";
import { localePath } from "~/lib/locale";

/**
 * The 404 page, in the language of the path asked for; its words come from the loader. A
 * mistyped campaign link still offers the lead and the landing page, both carrying the
 * campaign read from the URL (normalised, never echoed), server-rendered for JavaScript off.
 */
export function NotFound({ copy }: { copy: Copy["chrome"]["notFound"] }) {
  const locale = useLocale();
  const site = useSite();
  const { contact } = useUi();
  const campaign = campaignSearch(attributionFrom(new URLSearchParams(useLocation().search)));
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-start gap-6 px-5 py-20 sm:py-28">
      <p className="rounded-full bg-sand-100 px-3 py-1 text-sm font-semibold text-ink-900 dark:bg-ink-800 dark:text-sand-300">
        {copy.status}
      </p>
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-5xl">{copy.heading}</h1>
      <p className="text-lg text-slate-700 dark:text-slate-300">{copy.body}</p>
      <p className="text-lg text-slate-700 dark:text-slate-300">{copy.offer}</p>
      <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row sm:flex-wrap">
        <CtaLink
          cta={{
            text: copy.whatsapp,
            href: contactHref("whatsapp", site, contact),
            ctaType: "whatsapp",
          }}
          placement="not-found"
          icon={MessageCircle}
        />
        <PageLink
          to={`${localePath(locale, "/")}${campaign}`}
          className="inline-flex min-h-12 items-center justify-center gap-2 rounded-xl border border-slate-300 px-5 font-semibold hover:bg-slate-100 dark:border-ink-700 dark:hover:bg-ink-800"
        >
          <span>{copy.home}</span>
          <ArrowRight aria-hidden="true" className="size-4 shrink-0 rtl:-scale-x-100" />
        </PageLink>
      </div>
      <PageLink
        to={localePath(locale, "/sitemap")}
        className="inline-flex min-h-11 items-center gap-2 font-semibold underline-offset-4 hover:underline"
      >
        <MapIcon aria-hidden="true" className="size-4 shrink-0" />
        {copy.sitemap}
      </PageLink>
    </section>
  );
}
