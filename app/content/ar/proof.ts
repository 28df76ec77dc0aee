import { Globe, Lock, ShieldCheck, Smartphone } from "lucide-react";
import type { Localized } from "~/content/localized";
import type { testimonial as enTestimonial, trust as enTrust } from "~/content/proof";

/** Testimonial and trust badges. */
export const testimonial: Localized<typeof enTestimonial> = {
  heading: "من سائق في النسخة التجريبية",
  quote:
    "أقود كل يوم على شارع الإمارات إلى واحة دبي للسيليكون. بعد أسبوعين أظهر لي درب أنني أضغط الفرامل بقوة عند المخارج الثلاثة نفسها. حين صحّحت ذلك ارتفعت درجتي من 68 إلى 90، وحصلت على استرداد نقدي عند تجديد تأميني لأول مرة.",
  author: "سائق في النسخة التجريبية منذ مارس",
  detail: "يتنقّل يوميًا من الشارقة إلى واحة دبي للسيليكون",
};

export const trust: Localized<typeof enTrust> = {
  heading: "لماذا يثق السائقون بدرب",
  items: [
    {
      icon: Lock,
      title: "رحلاتك ملكك وحدك",
      body: "مشفّرة، لا تُباع أبدًا، وتُحذف متى طلبت.",
    },
    {
      icon: ShieldCheck,
      title: "بلا شروط خفية",
      body: "الباقة الأساسية مجانية دائمًا، ولا تحتاج إلى بطاقة دفع.",
    },
    {
      icon: Smartphone,
      title: "آيفون وأندرويد",
      body: "نظام iOS 16 أو أحدث، وأندرويد 10 أو أحدث.",
    },
    {
      icon: Globe,
      title: "العربية والإنجليزية",
      body: "التطبيق يتحدث اللغتين، في الواجهة وفي التنبيهات.",
    },
  ],
};
