import { useLocation } from "@remix-run/react";
import { Icon } from "~/components/Icon";
import { useOtherLanguage } from "~/hooks/use-site";
import { REMEMBERS_LANGUAGE } from "~/lib/link-clicks";
import { LOCALE_INFO, pathInLocale } from "~/lib/locale";

/**
 * A link to this page in the other language, named in that language. A full page load: the
 * document's language and direction change with it. The markup holds the bare twin path; the
 * click listener adds the page's query and hash (lib/link-clicks.ts, languageHref).
 */
export function LanguageSwitch({
  className = "inline-flex",
}: {
  /** Says how it displays ("inline-flex", "hidden md:inline-flex"…) and anything else. */
  className?: string;
}) {
  const { pathname } = useLocation();
  const other = useOtherLanguage();
  const info = LOCALE_INFO[other.locale];
  return (
    <a
      href={pathInLocale(pathname, other.locale)}
      hrefLang={info.lang}
      lang={info.lang}
      dir={info.dir}
      title={other.offer.switchLabel}
      {...{ [REMEMBERS_LANGUAGE]: "" }}
      className={`min-h-11 items-center gap-1.5 rounded-xl px-2.5 text-sm font-semibold text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-ink-800 ${className}`}
    >
      <Icon name="languages" className="size-5" />
      {other.offer.name}
    </a>
  );
}
