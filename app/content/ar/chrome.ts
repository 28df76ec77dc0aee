import type { chrome as en } from "~/content/chrome";
import type { Localized } from "~/content/localized";

/** Copy for the document frame: skip link, loading state, error and not-found screens. */
export const chrome: Localized<typeof en> = {
  skipLink: "انتقل إلى المحتوى",
  loading: "جارٍ تحميل الصفحة",
  notFound: {
    status: "404",
    heading: "هذا الطريق لا يؤدي إلى أي مكان",
    body: "الصفحة التي طلبتها غير موجودة. ربما نُقلت إلى مكان آخر، أو أن في الرابط خطأً مطبعيًا.",
    offer: "تبحث عن درب، مدرّب القيادة الذكي المجاني؟ اطلبه عبر واتساب، أو ابدأ من الصفحة الرئيسية.",
    whatsapp: "حمّل التطبيق مجانًا",
    home: "إلى الصفحة الرئيسية",
    sitemap: "تصفّح خريطة الموقع",
  },
  error: {
    // docs/product.md fixes the English title; this is its Arabic.
    heading: "خطأ غير متوقع في التطبيق!",
    body: "حدث خطأ من جهتنا أثناء عرض هذه الصفحة. يُرجى المحاولة مرة أخرى بعد قليل.",
    retry: "أعد تحميل الصفحة",
    home: "اذهب إلى الصفحة الرئيسية",
  },
};
