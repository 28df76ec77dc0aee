import { PageLink } from "~/components/PageLink";
import type { Copy } from "~/content/copy.server";
import { useLocale } from "~/hooks/use-site";
import { localePath } from "~/shared/locale";

/** Every page and section, in the page's language; the words come from the loader. */
export function SitemapPage({ copy }: { copy: Copy["pages"]["sitemap"] }) {
  const locale = useLocale();
  return (
    <div className="mx-auto max-w-3xl px-5 py-16">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{copy.heading}</h1>
      <p className="mt-3 text-lg text-slate-700 dark:text-slate-300">{copy.intro}</p>
      <h2 className="mt-10 text-xl font-semibold">{copy.pagesHeading}</h2>
      <ul className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-ink-800 dark:border-ink-800">
        {copy.pages.map((page) => (
          <li key={page.href}>
            <PageLink
              to={localePath(locale, page.href)}
              className="flex min-h-14 flex-col justify-center px-4 py-3 hover:bg-slate-50 dark:hover:bg-ink-900"
            >
              <span className="font-semibold">{page.label}</span>
              <span className="text-sm text-slate-600 dark:text-slate-400">{page.note}</span>
            </PageLink>
          </li>
        ))}
      </ul>
      <h2 className="mt-10 text-xl font-semibold">{copy.sectionsHeading}</h2>
      <ul className="mt-4 grid gap-x-6 sm:grid-cols-2">
        {copy.sections.map((section) => (
          <li key={section.href}>
            <PageLink
              to={localePath(locale, section.href)}
              className="inline-flex min-h-11 items-center underline underline-offset-4"
            >
              {section.label}
            </PageLink>
          </li>
        ))}
      </ul>
    </div>
  );
}
