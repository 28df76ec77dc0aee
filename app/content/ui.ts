import type { Localized } from "~/content/localized";
import type { CountdownUnit, SpokenWords } from "~/shared/countdown";
import type { CountedForms } from "~/shared/plural";

/** The words of the small interactive parts: countdown, notifications, share menu extras. */
export const ui = {
  countdown: {
    /**
     * Each cell's label, in the plural form of the number above it ("01 day", "02 days"):
     * typed as any language's forms, so a translation may add Arabic's dual and plurals.
     */
    units: {
      days: { one: "day", other: "days" } as CountedForms,
      hours: { one: "hour", other: "hours" } as CountedForms,
      mins: { one: "min", other: "mins" } as CountedForms,
      secs: { one: "sec", other: "secs" } as CountedForms,
    } satisfies Record<CountdownUnit, CountedForms>,
    /** The sentence screen readers get instead of the ticking cells. */
    spoken: {
      closesIn: "Beta closes in {duration}",
      underAMinute: "Beta closes in less than a minute",
      closed: "The beta has closed",
      // Typed as any language's forms, so a translation may add Arabic's dual and plurals.
      days: { one: "{count} day", other: "{count} days" } as CountedForms,
      hours: { one: "{count} hour", other: "{count} hours" } as CountedForms,
      minutes: { one: "{count} minute", other: "{count} minutes" } as CountedForms,
    } satisfies SpokenWords,
  },
  toaster: {
    /** Names the live region that holds the notifications. */
    region: "Notifications",
    dismiss: "Dismiss",
  },
  share: {
    copyLink: "Copy link",
    copied: "Link copied",
    copyFailed: "Couldn't copy the link",
  },
} as const;

/** The countdown's words, in any language. */
export type CountdownCopy = Localized<typeof ui.countdown>;
