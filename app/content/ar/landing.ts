import type { landing as en } from "~/content/landing";
import type { Localized } from "~/content/localized";
import { LOCALE_INFO } from "~/shared/locale";
import { counted } from "~/shared/plural";
import { countingFor } from "~/shared/plural.server";

const counting = countingFor(LOCALE_INFO.ar.intl);

/** Ratings after "بناءً على" ("based on"): the dual is in the genitive. */
const ratings = {
  one: "تقييم واحد",
  two: "تقييمين",
  few: "{count} تقييمات",
  many: "{count} تقييمًا",
  other: "{count} تقييم",
};

/** The landing page's head, navigation and hero. Sections follow in `sections.ts` and beyond. */
export const landing: Localized<typeof en> = {
  nav: {
    label: "القائمة الرئيسية",
    menu: "القائمة",
    /** The home link's name: the brand, then where it leads. */
    home: "درب، الصفحة الرئيسية",
    closeMenu: "إغلاق القائمة",
    links: [
      { id: "how-it-works", label: "كيف يعمل" },
      { id: "features", label: "المزايا" },
      { id: "plans", label: "الباقات" },
      { id: "download", label: "حمّل التطبيق" },
      { id: "faq", label: "الأسئلة الشائعة" },
    ],
    email: "راسلنا بالبريد الإلكتروني",
    whatsapp: "تحدّث معنا على واتساب",
    /** The phone menu's call to action (WhatsApp). */
    menuCta: "احصل على التطبيق عبر واتساب",
  },
  hero: {
    badge: "نسخة تجريبية محدودة · مجانية لسائقي دبي",
    headline: "قُد في دبي بأمان، واسترد حتى 25% من قسط تأمينك.",
    lead: "توجيه بالذكاء الاصطناعي في كل رحلة، وتنبيهات قبل الرادارات ومناطق المدارس، واسترداد نقدي من قسط تأمينك مقابل قيادتك الآمنة.",
    countdownLabel: "يُغلق التسجيل في النسخة التجريبية خلال",
    closesOn: "تُغلق النسخة التجريبية يوم {date}",
    closedOn: "أُغلقت النسخة التجريبية يوم {date}",
    socialProof: "47 سائقًا في دبي يستخدمون درب بالفعل",
    rating: {
      value: 4.8,
      count: 47,
      before: "التقييم",
      after: (count: number) => `بناءً على ${counted(counting, count, ratings)}`,
    },
    next: "نرسل لك رابط التطبيق لآيفون أو أندرويد عبر واتساب خلال ساعة، من 8 صباحًا حتى 10 مساءً.",
    nextInstant: "يصلك رابط التطبيق لآيفون أو أندرويد عبر واتساب خلال ثوانٍ، في أي وقت.",
    privacy: "الخصوصية",
    mainActionShort: "احصل على التطبيق",
  },
};
