import { CalendarClock } from "lucide-react";
import { ContactCtaLink } from "~/components/CtaLink.server";
import { InlineIcon } from "~/components/InlineIcon.server";
import { Section } from "~/components/Section.server";
import { formatDate } from "~/content/format";
import { useCopy } from "~/hooks/use-copy.server";
import { deadlineDay, nextDownloadDeadline } from "~/shared/download-deadline";

/**
 * How to get the beta (the steps are How it works' first one), with the deadline beside it: the
 * next 15 June, with its year, in the page's language (the render cache keeps this page no
 * later than Dubai's midnight: document/kept-until.server.ts).
 */
export function Download() {
  const { download, intl } = useCopy();
  const deadline = nextDownloadDeadline(new Date());
  const [before, after] = download.deadline.split("{date}");
  return (
    <Section id="download" heading={download.heading} intro={download.body} layout="side">
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
        <ContactCtaLink
          placement="download"
          icon="brand-whatsapp"
          variant="whatsapp"
          ctaType="whatsapp"
          text={download.whatsapp}
          arrow
        />
        <ContactCtaLink
          placement="download"
          variant="secondary"
          icon="mail"
          ctaType="email"
          text={download.email}
        />
      </div>
      <p className="mt-5 flex max-w-2xl gap-3 rounded-2xl bg-sand-100 p-4 text-ink-900 dark:bg-ink-900 dark:text-sand-300">
        <InlineIcon icon={CalendarClock} className="mt-0.5 size-5" />
        <span>
          {before}
          <time dateTime={deadlineDay(deadline)}>{formatDate(deadline, intl)}</time>
          {after}
        </span>
      </p>
    </Section>
  );
}
