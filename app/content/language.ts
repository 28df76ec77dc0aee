import type { Locale } from "~/shared/locale";

/**
 * What leads a visitor to a language, written in that language: an English page offers
 * Arabic in Arabic, and the other way round.
 */
export const languageOffers = {
  en: {
    name: "English",
    switchLabel: "Read this page in English",
    suggestion: "This site is also in English.",
    accept: "Switch to English",
    dismiss: "No thanks",
  },
  ar: {
    name: "العربية",
    switchLabel: "اقرأ هذه الصفحة بالعربية",
    suggestion: "هذا الموقع متوفّر باللغة العربية.",
    accept: "التبديل إلى العربية",
    dismiss: "لا، شكرًا",
  },
} as const satisfies Record<Locale, Record<string, string>>;
