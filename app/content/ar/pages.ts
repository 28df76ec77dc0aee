import type { Localized } from "~/content/localized";
import type { pages as en } from "~/content/pages";

/** The site's pages, for the human sitemap and the not-found page's way out. */
export const pages: Localized<typeof en> = {
  sitemap: {
    heading: "خريطة الموقع",
    intro: "كل ما في هذا الموقع، في قائمة واحدة.",
    pagesHeading: "الصفحات",
    sectionsHeading: "في الصفحة الرئيسية",
    pages: [
      { label: "الرئيسية", href: "/", note: "ما يقدّمه درب وكيف تحصل عليه" },
      { label: "شارك درب", href: "/share", note: "أرسل التطبيق إلى سائق تعرفه" },
      { label: "خريطة الموقع", href: "/sitemap", note: "هذه الصفحة" },
      {
        label: "إشعار الخصوصية",
        href: "/privacy",
        note: "ما يسجّله هذا الموقع وما يرسله، وطريقة طلب حذفه",
      },
      { label: "الشروط", href: "/terms", note: "الموقع وعرض النسخة التجريبية، بكلمات بسيطة" },
    ],
    sections: [
      { label: "احصل على التطبيق المجاني", href: "/#hero" },
      { label: "كيف يعمل", href: "/#how-it-works" },
      { label: "المزايا", href: "/#features" },
      { label: "نتائج السلامة", href: "/#safety-results" },
      { label: "الباقات", href: "/#plans" },
      { label: "من سائق في النسخة التجريبية", href: "/#testimonial" },
      { label: "لماذا يثق السائقون بدرب", href: "/#trust" },
      { label: "حمّل التطبيق", href: "/#download" },
      { label: "الأسئلة الشائعة", href: "/#faq" },
      { label: "ابدأ القيادة بأمان أكبر", href: "/#get-started" },
    ],
  },
};
