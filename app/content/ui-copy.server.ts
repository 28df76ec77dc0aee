import { copyFor } from "~/content/copy.server";
import { LOCALE_INFO, type Locale } from "~/shared/locale";
import { countingFor } from "~/shared/plural.server";

/**
 * The words the page's interactive parts need in the browser (header, share menu, toasts,
 * loading and error screens), in the page's language only. They travel with the root loader's
 * data rather than in the JavaScript bundle, so a second language costs no script.
 */
function build(locale: Locale) {
  const copy = copyFor(locale);
  return {
    brandName: copy.brand.name,
    nav: copy.landing.nav,
    contact: copy.contact,
    share: { ...copy.share, ...copy.ui.share },
    toaster: copy.ui.toaster,
    // How to count in words (the countdowns) without the browser loading ICU data.
    counting: countingFor(LOCALE_INFO[locale].intl),
    chrome: {
      skipLink: copy.chrome.skipLink,
      loading: copy.chrome.loading,
      error: copy.chrome.error,
    },
  };
}

export type UiCopy = ReturnType<typeof build>;

// Built once per language: the root loader asks on every request, documents and data alike.
const byLocale: Record<Locale, UiCopy> = { en: build("en"), ar: build("ar") };

export function uiCopy(locale: Locale): UiCopy {
  return byLocale[locale];
}
