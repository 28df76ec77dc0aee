import type { CountdownUnit, SpokenWords } from "~/lib/countdown";

/** The words of the small interactive parts: countdown, notifications, share menu extras. */
export const ui = {
  countdown: {
    units: {
      days: "days",
      hours: "hours",
      mins: "mins",
      secs: "secs",
    } satisfies Record<CountdownUnit, string>,
    /** Shown in every cell until the browser knows the time: the server cannot. */
    placeholder: "--",
    /** Read before the browser knows the time, when the close is a fixed date. */
    pending: "Beta closes soon",
    /** The sentence screen readers get instead of the ticking cells. */
    spoken: {
      closesIn: (duration: string) => `Beta closes in ${duration}`,
      underAMinute: "Beta closes in less than a minute",
      closed: "The beta has closed",
      days: (count: number) => `${count} ${count === 1 ? "day" : "days"}`,
      hours: (count: number) => `${count} ${count === 1 ? "hour" : "hours"}`,
      minutes: (count: number) => `${count} ${count === 1 ? "minute" : "minutes"}`,
      join: (parts: readonly string[]) =>
        parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts.join(""),
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
