import { andList, type CountedNoun, counted } from "~/content/ar/plural";
import type { Localized } from "~/content/localized";
import type { ui as en } from "~/content/ui";
import type { CountdownUnit, SpokenWords } from "~/lib/countdown";

/**
 * The counted units of the spoken countdown. They are the subject of the sentence
 * ("يتبقّى … يومان"), so the dual is in the nominative.
 */
const days: CountedNoun = {
  one: "يوم واحد",
  two: "يومان",
  few: "أيام",
  many: "يومًا",
  other: "يوم",
};
const hours: CountedNoun = {
  one: "ساعة واحدة",
  two: "ساعتان",
  few: "ساعات",
  many: "ساعة",
  other: "ساعة",
};
const minutes: CountedNoun = {
  one: "دقيقة واحدة",
  two: "دقيقتان",
  few: "دقائق",
  many: "دقيقة",
  other: "دقيقة",
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
      closesIn: (duration: string) => `يتبقّى على إغلاق النسخة التجريبية ${duration}`,
      underAMinute: "يتبقّى على إغلاق النسخة التجريبية أقل من دقيقة",
      closed: "أُغلقت النسخة التجريبية",
      days: (count: number) => counted(count, days),
      hours: (count: number) => counted(count, hours),
      minutes: (count: number) => counted(count, minutes),
      join: (parts: readonly string[]) => andList(parts),
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
