import { formatClosing } from "~/content/format";
import { useCopy } from "~/hooks/use-copy.server";
import { useSite } from "~/hooks/use-site";
import { fill } from "~/shared/plural";

/** What the countdown counts to (a static part). */
export function CountdownLabel() {
  const { landing } = useCopy();
  return <p className="text-sm font-semibold text-sand-300">{landing.hero.countdownLabel}</p>;
}

/**
 * Under the countdown (a static part): BETA_CLOSES_AT written out on Dubai's calendar when it is
 * set ("Beta closes 30 November", "Beta closed …" once the server sees it has passed). The note
 * on downloading early sits with the download section's actions, where it is acted on.
 * Server-rendered only, so no date formatting reaches the browser.
 */
export function CountdownNotes() {
  const { landing, intl } = useCopy();
  const { betaClosesAt } = useSite();
  const closes = betaClosesAt ? new Date(betaClosesAt) : null;
  return betaClosesAt && closes ? (
    <p className="w-full text-xs font-semibold text-slate-300">
      <time dateTime={betaClosesAt}>
        {fill(Date.now() < closes.getTime() ? landing.hero.closesOn : landing.hero.closedOn, {
          date: formatClosing(closes, intl),
        })}
      </time>
    </p>
  ) : null;
}
