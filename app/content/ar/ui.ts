import type { Localized } from "~/content/localized";
import type { ui as en } from "~/content/ui";
import type { CountdownUnit, SpokenWords } from "~/lib/countdown";

/**
 * The counted units of the spoken countdown. They are the subject of the sentence
 * ("يتبقّى … يومان"), so the dual is in the nominative.
 */
const days = {
  one: "يوم واحد",
  two: "يومان",
  few: "{count} أيام",
  many: "{count} يومًا",
  other: "{count} يوم",
};
const hours = {
  one: "ساعة واحدة",
  two: "ساعتان",
  few: "{count} ساعات",
  many: "{count} ساعة",
  other: "{count} ساعة",
};
const minutes = {
  one: "دقيقة واحدة",
  two: "دقيقتان",
  few: "{count} دقائق",
  many: "{count} دقيقة",
  other: "{count} دقيقة",
};

/** The words of the small interactive parts: countdown, notifications, share menu extras. */
export const ui: Localized<typeof en> = {
  countdown: {
    /** Short cell labels: the plural reads as a unit name, whatever the number above it. */
    units: {
      days: "أيام",
      hours: "ساعات",
      mins: "دقائق",
      secs: "ثوانٍ",
    } satisfies Record<CountdownUnit, string>,
    placeholder: "--",
    pending: "تُغلق النسخة التجريبية قريبًا",
    spoken: {
      closesIn: "يتبقّى على إغلاق النسخة التجريبية {duration}",
      underAMinute: "يتبقّى على إغلاق النسخة التجريبية أقل من دقيقة",
      closed: "أُغلقت النسخة التجريبية",
      days,
      hours,
      minutes,
    } satisfies SpokenWords,
  },
  toaster: {
    region: "الإشعارات",
    dismiss: "إغلاق",
  },
  share: {
    copyLink: "نسخ الرابط",
    copied: "تم نسخ الرابط",
    copyFailed: "تعذّر نسخ الرابط",
  },
};
