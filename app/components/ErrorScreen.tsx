import { Icon } from "~/components/Icon";
import { errorFallback } from "~/content/error";
import { useLocale, useOptionalUi } from "~/hooks/use-site";
import { localePath } from "~/shared/locale";

export type ErrorScreenProps = {
  /** "404 Not Found", or the error's message. */
  detail: string;
  /** Only ever passed in development. */
  stack?: string;
  /** The address that failed, to try again with a full page load. */
  retryHref: string;
};

/**
 * The screen for any error no route handled. Plain <a> links on purpose: after an error the
 * client router may be the broken part, so a full document load is the safe way out.
 */
export function ErrorScreen({ detail, stack, retryHref }: ErrorScreenProps) {
  // In the page's language; in English when the root loader itself failed.
  const copy = useOptionalUi()?.chrome.error ?? errorFallback.error;
  const home = localePath(useLocale(), "/");
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-start gap-6 px-5 py-20 sm:py-28">
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{copy.heading}</h1>
      <p className="rounded-lg bg-sand-100 px-4 py-3 font-mono text-sm text-ink-900 dark:bg-ink-800 dark:text-sand-300">
        {detail}
      </p>
      <p className="text-lg text-slate-700 dark:text-slate-300">{copy.body}</p>
      {stack ? (
        <pre className="max-w-full overflow-auto rounded-lg bg-slate-100 p-4 text-xs dark:bg-ink-900">
          {stack}
        </pre>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <a
          href={retryHref}
          className="inline-flex min-h-12 items-center gap-2 rounded-xl bg-ink-900 px-5 font-semibold text-white hover:bg-ink-800 dark:bg-road-500 dark:text-ink-950"
        >
          <Icon name="refresh" className="size-4" />
          {copy.retry}
        </a>
        <a
          href={home}
          className="inline-flex min-h-12 items-center rounded-xl border border-slate-300 px-5 font-semibold hover:bg-slate-100 dark:border-ink-700 dark:hover:bg-ink-800"
        >
          {copy.home}
        </a>
      </div>
    </section>
  );
}
