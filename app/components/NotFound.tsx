import { ArrowRight, Map as MapIcon, MessageCircle } from "lucide-react";
import { PageLink } from "~/components/PageLink";
import type { Copy } from "~/content/copy.server";
import { useLocale } from "~/hooks/use-site";
import type { NotFoundLinks } from "~/pages/not-found.server";
import { localePath } from "~/shared/locale";

const BUTTON =
  "inline-flex min-h-12 items-center justify-center gap-2 rounded-xl px-5 py-3 font-semibold transition-colors";

/**
 * The 404 page, in the language of the path asked for; its words and links come from the
 * loader (pages/not-found.server.ts). The WhatsApp link is a lead link like every other: the document's
 * click listener reports it and puts the visit's source on it (hooks/use-link-clicks.ts).
 */
export function NotFound({
  copy,
  links,
}: {
  copy: Copy["chrome"]["notFound"];
  links: NotFoundLinks;
}) {
  const locale = useLocale();
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-start gap-6 px-5 py-20 sm:py-28">
      <p className="rounded-full bg-sand-100 px-3 py-1 text-sm font-semibold text-ink-900 dark:bg-ink-800 dark:text-sand-300">
        {copy.status}
      </p>
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-5xl">{copy.heading}</h1>
      <p className="text-lg text-slate-700 dark:text-slate-300">{copy.body}</p>
      <p className="text-lg text-slate-700 dark:text-slate-300">{copy.offer}</p>
      <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row sm:flex-wrap">
        <a
          href={links.lead.href}
          className={`${BUTTON} bg-road-700 text-white shadow-lg shadow-road-700/25 hover:bg-road-600 dark:bg-road-500 dark:text-ink-950 dark:hover:bg-road-600`}
        >
          <MessageCircle aria-hidden="true" className="size-5 shrink-0" />
          <span>{copy.whatsapp}</span>
        </a>
        <PageLink
          to={links.home}
          className={`${BUTTON} border border-slate-300 hover:bg-slate-100 dark:border-ink-700 dark:hover:bg-ink-800`}
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
