import { ArrowRight, Map as MapIcon } from "lucide-react";
import { PageLink } from "~/components/PageLink";
import type { Copy } from "~/content/copy.server";
import { useLocale } from "~/hooks/use-site";
import { localePath } from "~/lib/locale";

/** The 404 page, in the language of the path asked for; its words come from the loader. */
export function NotFound({ copy }: { copy: Copy["chrome"]["notFound"] }) {
  const locale = useLocale();
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-start gap-6 px-5 py-20 sm:py-28">
      <p className="rounded-full bg-sand-100 px-3 py-1 text-sm font-semibold text-ink-900 dark:bg-ink-800 dark:text-sand-300">
        {copy.status}
      </p>
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-5xl">{copy.heading}</h1>
      <p className="text-lg text-slate-700 dark:text-slate-300">{copy.body}</p>
      <div className="flex flex-wrap gap-3">
        <PageLink
          to={localePath(locale, "/")}
          className="inline-flex min-h-12 items-center gap-2 rounded-xl bg-ink-900 px-5 font-semibold text-white hover:bg-ink-800 dark:bg-road-500 dark:text-ink-950 dark:hover:bg-road-600"
        >
          {copy.home}
          <ArrowRight aria-hidden="true" className="size-4 rtl:-scale-x-100" />
        </PageLink>
        <PageLink
          to={localePath(locale, "/sitemap")}
          className="inline-flex min-h-12 items-center gap-2 rounded-xl border border-slate-300 px-5 font-semibold hover:bg-slate-100 dark:border-ink-700 dark:hover:bg-ink-800"
        >
          <MapIcon aria-hidden="true" className="size-4" />
          {copy.sitemap}
        </PageLink>
      </div>
    </section>
  );
}
