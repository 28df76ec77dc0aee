import type { Localized } from "~/content/localized";
import type { plans as en } from "~/content/plans";

/**
 * App plans (docs/product.md: free, 149 AED and 299 AED, here per year). "Plus" and "Pro" are spelt out
 * in Arabic letters, as Gulf apps name their tiers; "Basic" is translated, since it is a plain word.
 */
export const plans: Localized<typeof en> = {
  heading: "الباقات",
  intro: "الأسعار سنوية، وتبدأ عند الإطلاق.",
  currency: "AED",
  period: "year",
  periodLabel: { month: "شهريًا", year: "سنويًا" },
  periodUnit: { month: "شهر", year: "سنة" },
  free: "مجانًا",
  betaBadge: "مجانية لسائقي النسخة التجريبية",
  items: [
    {
      id: "basic",
      name: "الأساسية",
      price: 0,
      beta: "مجانية لكل السائقين، دائمًا.",
      summary: "التوجيه والتنبيهات لقيادتك اليومية.",
      features: [
        "توجيه بالذكاء الاصطناعي للقيادة الآمنة بعد كل رحلة",
        "تنبيهات الرادارات ومناطق المدارس",
        "درجة قيادة أسبوعية",
        "التأهّل للاسترداد النقدي من التأمين",
      ],
      cta: "اختر الأساسية",
      whatsappMessage: "مرحبًا درب! أودّ الحصول على التطبيق المجاني بالباقة الأساسية.",
      highlighted: false,
    },
    {
      id: "plus",
      name: "بلس",
      price: 149,
      beta: "حمّل التطبيق قبل 15 يونيو لتبقى لك مجانًا مدى الحياة.",
      summary: "لمن يتنقّل يوميًا ويريد كل التفاصيل.",
      features: [
        "كل ما في الباقة الأساسية",
        "تحسين المسارات مع مراعاة بوابات سالك",
        "تحليلات كاملة بعد كل رحلة مع خريطة الرحلة",
        "تنبيهات الضباب والعواصف الرملية",
      ],
      cta: "احصل على بلس مجانًا",
      whatsappMessage: "مرحبًا درب! أودّ الحصول على باقة بلس المجانية لسائقي النسخة التجريبية.",
      highlighted: true,
    },
    {
      id: "pro",
      name: "برو",
      price: 299,
      beta: "متاحة عند الإطلاق. لعائلتك أو فريق عملك؟ تواصل معنا الآن.",
      summary: "للعائلات ولكل من يقود بحكم عمله.",
      features: [
        "كل ما في باقة بلس",
        "حتى 4 سائقين في حساب واحد",
        "أولوية في صرف الاسترداد النقدي",
        "تقارير قابلة للتصدير لشركات التأمين وجهات العمل",
      ],
      cta: "اختر برو",
      whatsappMessage: "مرحبًا درب! أودّ الاشتراك في باقة برو.",
      highlighted: false,
    },
  ],
};
