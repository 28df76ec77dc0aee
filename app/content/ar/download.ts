import type { download as enDownload, getStarted as enGetStarted } from "~/content/download";
import type { Localized } from "~/content/localized";

/** Download section and the closing call to action. */
export const download: Localized<typeof enDownload> = {
  heading: "حمّل التطبيق",
  body: "درب متاح الآن في نسخة تجريبية محدودة لسائقي دبي. راسلنا على واتساب وسنرسل لك رابط تحميل خاصًا بك لهاتف آيفون أو أندرويد، أو راسلنا بالبريد الإلكتروني إن كنت تفضّله.",
  whatsapp: "احصل على الرابط عبر واتساب",
  email: "اطلبه بالبريد الإلكتروني",
  deadline:
    "حمّل التطبيق قبل {date} لتحتفظ بالمزايا المميّزة مدى الحياة وتحصل على أولوية في صرف الاسترداد النقدي.",
};

export const getStarted: Localized<typeof enGetStarted> = {
  heading: "ابدأ القيادة بأمان أكبر هذا الأسبوع",
  body: "تحميله مجاني، ويبقى مجانيًا دائمًا. تصلك أول نصيحة من مدرّبك بعد أول رحلة.",
  app: "حمّل التطبيق مجانًا",
  email: "الدعم بالبريد",
  share: "شارك",
};
