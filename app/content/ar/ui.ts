import type { Localized } from "~/content/localized";
import type { ui as en } from "~/content/ui";
import type { CountdownUnit, SpokenWords } from "~/shared/countdown";
import type { CountedForms } from "~/shared/plural";

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
    /**
     * Each cell's label agrees with the number above it, as Arabic counts: "01 يوم",
     * "02 يومان", "03 أيام", "11 يومًا"; 0 and 100 take the singular, as in "100 يوم".
     */
    units: {
      days: { one: "يوم", two: "يومان", few: "أيام", many: "يومًا", other: "يوم" },
      hours: { one: "ساعة", two: "ساعتان", few: "ساعات", many: "ساعة", other: "ساعة" },
      mins: { one: "دقيقة", two: "دقيقتان", few: "دقائق", many: "دقيقة", other: "دقيقة" },
      secs: { one: "ثانية", two: "ثانيتان", few: "ثوانٍ", many: "ثانية", other: "ثانية" },
    } satisfies Record<CountdownUnit, CountedForms>,
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
