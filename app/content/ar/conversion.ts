import { MonitorPlay } from "lucide-react";
import type {
  contact as enContact,
  heroCtas as enHeroCtas,
  thankYou as enThankYou,
} from "~/content/conversion";
import type { Localized } from "~/content/localized";

/** The words of the four contact routes, and of the page that counts a lead. */
export const contact: Localized<typeof enContact> = {
  whatsappMessage: "مرحبًا درب! أودّ الحصول على تطبيق مدرّب القيادة الذكي المجاني في دبي.",
  emailSubject: "درب: أودّ الحصول على التطبيق المجاني",
  chatRef: "المرجع",
};

export const heroCtas: Localized<typeof enHeroCtas> = [
  { text: "احصل على التطبيق عبر واتساب", ctaType: "whatsapp", icon: "brand-whatsapp", arrow: true },
  { text: "راسلنا بالبريد", ctaType: "email", icon: "mail" },
  { text: "عرض توضيحي", ctaType: "demo", icon: MonitorPlay },
];

export const thankYou: Localized<typeof enThankYou> = {
  heading: {
    whatsapp: "بقيت خطوة واحدة: أرسل الرسالة",
    email: "بقيت خطوة واحدة: أرسل بريدك الإلكتروني",
    demo: "بقيت خطوة واحدة: شاهد العرض التوضيحي",
    link: "بقيت خطوة واحدة: افتح الرابط",
  },
  thanks: "شكرًا لك!",
  opening: {
    whatsapp: "جارٍ فتح واتساب…",
    email: "جارٍ فتح تطبيق البريد الإلكتروني…",
    demo: "جارٍ نقلك إلى العرض التوضيحي…",
    link: "جارٍ نقلك…",
  },
  next: {
    whatsapp: "أرسل الرسالة التي تظهر في واتساب، وسنردّ عليك برابط التحميل الخاص بك.",
    email: "أرسل لنا رسالة قصيرة من تطبيق البريد الإلكتروني، وسنردّ عليك برابط التحميل الخاص بك.",
    demo: "شاهد في العرض التوضيحي رحلة حقيقية في شوارع دبي، مقيّمة بالطريقة نفسها التي سيقيّم بها التطبيق رحلاتك.",
    link: "أنت في طريقك.",
  },
  // After "خلال" ("within") the dual is in the genitive: "ثانيتين".
  countdown: {
    one: "سننقلك خلال ثانية واحدة.",
    two: "سننقلك خلال ثانيتين.",
    few: "سننقلك خلال {count} ثوانٍ.",
    many: "سننقلك خلال {count} ثانية.",
    other: "سننقلك خلال {count} ثانية.",
  },
  continuingNow: "جارٍ الانتقال الآن…",
  didntOpen: {
    whatsapp: "ألم يُفتح واتساب؟",
    email: "ألم يُفتح تطبيق البريد الإلكتروني؟",
    demo: "ألم يُفتح العرض التوضيحي؟",
    link: "ألم يُفتح الرابط؟",
  },
  settled: {
    whatsapp: "اضغط «افتح واتساب» لتحاول مرة أخرى.",
    email:
      "انسخ عنواننا وأرسل لنا رسالة من أي تطبيق بريد إلكتروني أو من بريدك على الويب، أو راسلنا عبر واتساب.",
    demo: "اضغط «افتح العرض التوضيحي» لتحاول مرة أخرى.",
    link: "اضغط «افتح الرابط» لتحاول مرة أخرى.",
  },
  returned: "شكرًا لاهتمامك بدرب. تابع متى كنت جاهزًا، أو تصفّح الموقع.",
  again: {
    whatsapp: "محادثتك معنا على بُعد نقرة واحدة.",
    email: "راسلنا متى كنت جاهزًا.",
    demo: "العرض التوضيحي على بُعد نقرة واحدة.",
    link: "الرابط على بُعد نقرة واحدة.",
  },
  stopped: "ستبقى في هذه الصفحة. تابع متى كنت جاهزًا.",
  stay: "البقاء في هذه الصفحة",
  address: "عنوان بريدنا الإلكتروني",
  copyAddress: "نسخ العنوان",
  copied: "تم نسخ العنوان",
  copyFailed: "تعذّر النسخ. العنوان محدَّد الآن، فانسخه من هناك.",
  whatsappInstead: "أو راسلنا عبر واتساب",
  noTarget: "شكرًا لاهتمامك بدرب. تصفّح الموقع، أو تواصل معنا في أي وقت.",
  open: {
    whatsapp: "افتح واتساب",
    email: "افتح تطبيق البريد",
    demo: "افتح العرض التوضيحي",
    link: "افتح الرابط",
  },
  back: "العودة إلى الموقع",
  legal: { label: "الخصوصية والشروط", privacy: "الخصوصية", terms: "الشروط" },
};
