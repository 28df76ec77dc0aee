import { brand } from "~/content/ar/brand";
import type { headDefaults as enHeadDefaults, heads as enHeads } from "~/content/heads";
import type { Localized } from "~/content/localized";

/** The same dates as the English pages: one site, one history. */
const PUBLISHED = "2026-03-01T09:00:00+04:00";
const UPDATED = "2026-11-22T09:00:00+04:00";
const LEGAL_UPDATED = "2026-11-26T09:00:00+04:00";

export const headDefaults: Localized<typeof enHeadDefaults> = {
  siteName: brand.name,
  /** Open Graph's form of ar-AE. */
  ogLocale: "ar_AE",
  twitterCard: "summary_large_image",
  author: `فريق ${brand.name}`,
  ogImage: {
    path: "/og-image.png",
    width: 1200,
    height: 630,
    type: "image/png",
    alt: "درب على شاشة هاتف: مسار على شارع الشيخ زايد مع تنبيه رادار، وعبارة: قُد في دبي بأمان أكبر، واسترد حتى 25% من قسط تأمينك.",
  },
  /** As drivers in the Gulf type them into a search box. */
  keywords: [
    "تطبيق مدرب قيادة دبي",
    "تطبيق القيادة الآمنة الإمارات",
    "تنبيه الرادارات دبي",
    "استرداد نقدي تأمين السيارة الإمارات",
    "طريق بدون سالك دبي",
    "تطبيق ملاحة دبي",
  ],
};

export const heads: Localized<typeof enHeads> = {
  home: {
    title: `${brand.name}: تطبيق مجاني للقيادة الآمنة والملاحة في دبي`,
    description: {
      default:
        "درب تطبيق مجاني للقيادة الآمنة والملاحة في دبي: توجيه بالذكاء الاصطناعي للقيادة الآمنة، وتنبيهات فورية، ومسارات أذكى، وتحليلات بعد كل رحلة، واسترداد نقدي يصل إلى 25% من قسط التأمين.",
      facebook:
        "قُد في دبي بأمان أكبر مع درب، التطبيق المجاني الذي يرشدك في كل رحلة، وينبّهك قبل الرادارات ومناطق المدارس، وقد يعيد إليك حتى 25% من قسط تأمين سيارتك.",
      twitter:
        "مدرّب قيادة مجاني بالذكاء الاصطناعي في دبي: تنبيهات الرادارات، ومسارات ذكية تحسب حساب سالك، ودرجة بعد كل رحلة، واسترداد نقدي حتى 25% من قسط التأمين. نسخة تجريبية محدودة.",
      whatsapp:
        "مدرّب قيادة ذكي ومجاني في دبي: تنبيه قبل الرادارات، ودرجة بعد كل رحلة، واسترداد حتى 25% من قسط التأمين. اضغط لتحميل التطبيق.",
    },
    ogType: "website",
    datePublished: PUBLISHED,
    dateModified: UPDATED,
  },
  share: {
    title: "شارك درب مع سائق تعرفه",
    description: {
      default:
        "انشر درب بين معارفك: مدرّب القيادة الذكي المجاني في دبي، مع تنبيهات الرادارات ودرجة بعد كل رحلة واسترداد نقدي حتى 25% من قسط التأمين.",
      facebook:
        "تعرف شخصًا يسلك شارع الشيخ زايد كل يوم؟ شارك معه درب، مدرّب القيادة الذكي المجاني الذي قد يعيد إليه حتى 25% من قسط تأمين سيارته.",
      twitter:
        "شارك درب: مدرّب قيادة مجاني بالذكاء الاصطناعي في دبي، مع تنبيهات الرادارات واسترداد نقدي حتى 25% من قسط التأمين.",
      whatsapp:
        "أرسل درب إلى صديق: مدرّب القيادة الذكي المجاني في دبي، مع تنبيهات الرادارات واسترداد حتى 25% من قسط التأمين.",
    },
    ogType: "website",
    datePublished: PUBLISHED,
    dateModified: UPDATED,
  },
  sitemap: {
    title: "خريطة الموقع",
    description: "كل صفحات موقع درب وأقسامه في قائمة واحدة.",
    dateModified: UPDATED,
  },
  privacy: {
    title: "إشعار الخصوصية",
    description: "ما يسجّله موقع درب حين تزوره، ومن يرسله إليهم، وكم يُحتفظ به، وكيف تطلب حذفه.",
    dateModified: LEGAL_UPDATED,
  },
  terms: {
    title: "الشروط",
    description:
      "شروط موقع درب وعرض نسخته التجريبية بكلمات بسيطة: النسخة التجريبية، والباقات، وما يتوقف عليه الاسترداد النقدي حتى 25% من التأمين.",
    dateModified: LEGAL_UPDATED,
  },
  thankYou: {
    title: "شكرًا لك",
    description: "شكرًا لاهتمامك بدرب، مدرّب القيادة الذكي المجاني في دبي.",
  },
  notFound: {
    title: "الصفحة غير موجودة",
    description: "تعذّر العثور على هذه الصفحة.",
  },
};
