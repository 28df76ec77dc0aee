import { DISMISS, DISMISSIBLE, REMEMBERS_LANGUAGE } from "~/analytics/link-clicks";
import { Icon } from "~/components/Icon";
import { languageOffers } from "~/content/language";
import { useLanguageHref } from "~/hooks/use-language-href";
import { useOtherLanguage } from "~/hooks/use-site";
import { LOCALE_INFO } from "~/shared/locale";

/**
 * For a visitor whose browser prefers the other language: a small offer to switch, written in
 * that language, never a redirect. A static part: the document's click listener
 * (hooks/use-link-clicks.ts) hides it and remembers the choice in a cookie, so the server stops
 * rendering it. Without JavaScript the offer stays, and its link works. One row on a phone
 * (`language-offer` in tailwind.css), so its close button never wraps under it (97 px tall if it did).
 */
export function LanguageSuggestion() {
  const other = useOtherLanguage();
  const offer = languageOffers[other.locale];
  const href = useLanguageHref(other.locale);
  const info = LOCALE_INFO[other.locale];
  return (
    <aside
      lang={info.lang}
      dir={info.dir}
      aria-label={offer.switchLabel}
      {...{ [DISMISSIBLE]: "" }}
      className="border-b border-sand-300 bg-sand-100 text-ink-900 dark:border-ink-700 dark:bg-ink-900 dark:text-sand-300"
    >
      <div className="language-offer">
        <p className="min-w-0 font-medium">{offer.suggestion}</p>
        <a
          href={href}
          hrefLang={info.lang}
          {...{ [REMEMBERS_LANGUAGE]: "" }}
          className="inline-flex min-h-11 shrink-0 items-center font-semibold underline underline-offset-4"
        >
          {offer.accept}
        </a>
        <button
          type="button"
          {...{ [DISMISS]: "", [REMEMBERS_LANGUAGE]: "" }}
          aria-label={offer.dismiss}
          className="-me-2 ms-auto inline-flex size-11 shrink-0 items-center justify-center rounded-xl hover:bg-sand-300/40 dark:hover:bg-ink-800"
        >
          <Icon name="close" className="size-5" />
        </button>
      </div>
    </aside>
  );
}
