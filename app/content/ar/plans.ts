import type { Localized } from "~/content/localized";
import type { plans as en } from "~/content/plans";

/**
 * App plans (spec §1: free, 149 AED and 299 AED). "Plus" and "Pro" are spelt out in Arabic
 * letters, as Gulf apps name their tiers; "Basic" is translated, since it is a plain word.
 */
export const plans: Localized<typeof en> = {
  heading: "الباقات",
  intro: "ابدأ مجانًا، ولا تنتقل إلى باقة أعلى إلا إذا كان التدريب الإضافي يغطي تكلفته.",
  currency: "AED",
  period: null,
  periodLabel: { month: "شهر", year: "سنة" },
  free: "مجانًا",
  popular: "الأكثر طلبًا",
  items: [
    {
      id: "basic",
      name: "الأساسية",
      price: 0,
      summary: "التدريب والتنبيهات لقيادتك اليومية.",
      features: [
        "تدريب على السلامة بالذكاء الاصطناعي بعد كل رحلة",
        "تنبيهات الرادارات ومناطق المدارس",
        "درجة قيادة أسبوعية",
        "أهلية للاسترداد النقدي من التأمين",
      ],
      cta: "احصل على الأساسية مجانًا",
      highlighted: false,
    },
    {
      id: "plus",
      name: "بلس",
      price: 149,
      summary: "لمن يتنقّل يوميًا ويريد الصورة كاملة.",
      features: [
        "كل ما في الباقة الأساسية",
        "تحسين المسارات مع حساب بوابات سالك",
        "تحليلات كاملة بعد كل رحلة مع خريطة الرحلة",
        "تنبيهات الضباب والعواصف الرملية",
      ],
      cta: "اختر بلس",
      highlighted: true,
    },
    {
      id: "pro",
      name: "برو",
      price: 299,
      summary: "للعائلات ولكل من يقود بحكم عمله.",
      features: [
        "كل ما في باقة بلس",
        "حتى 4 سائقين في حساب واحد",
        "أولوية في صرف الاسترداد النقدي",
        "تقارير قابلة للتصدير لشركات التأمين وجهات العمل",
      ],
      cta: "اختر برو",
      highlighted: false,
    },
  ],
};
