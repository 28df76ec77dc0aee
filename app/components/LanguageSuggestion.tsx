import { useLocation } from "@remix-run/react";
import { X } from "lucide-react";
import { useState } from "react";
import { useOtherLanguage } from "~/hooks/use-site";
import { rememberLanguageChoice } from "~/lib/language-cookie";
import { LOCALE_INFO, pathInLocale } from "~/lib/locale";

/**
 * For a visitor whose browser prefers the other language: a small offer to switch, written in
 * that language, never a redirect. Dismissing it (or switching) is remembered in a cookie, so
 * the server stops rendering it.
 */
export function LanguageSuggestion() {
  const { pathname, search, hash } = useLocation();
  const other = useOtherLanguage();
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;
  const info = LOCALE_INFO[other.locale];
  return (
    <aside
      lang={info.lang}
      dir={info.dir}
      aria-label={other.offer.switchLabel}
      className="border-b border-sand-300 bg-sand-100 text-ink-900 dark:border-ink-700 dark:bg-ink-900 dark:text-sand-300"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-1.5 text-sm sm:px-5">
        <p className="font-medium">{other.offer.suggestion}</p>
        <a
          href={`${pathInLocale(pathname, other.locale)}${search}${hash}`}
          hrefLang={info.lang}
          onClick={() => rememberLanguageChoice()}
          className="inline-flex min-h-11 items-center font-semibold underline underline-offset-4"
        >
          {other.offer.accept}
        </a>
        <button
          type="button"
          onClick={() => {
            rememberLanguageChoice();
            setDismissed(true);
          }}
          aria-label={other.offer.dismiss}
          className="ms-auto inline-flex size-11 items-center justify-center rounded-xl hover:bg-sand-300/40 dark:hover:bg-ink-800"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>
    </aside>
  );
}
