import { CalendarClock, Mail, MessageCircle } from "lucide-react";
import { CtaLink } from "~/components/CtaLink.server";
import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";
import { useSite } from "~/hooks/use-site";
import { contactHref } from "~/shared/cta";

export function Download() {
  const { contact, download } = useCopy();
  const site = useSite();
  return (
    <Section id="download" heading={download.heading} intro={download.body}>
      <div className="grid gap-8 lg:grid-cols-2">
        <ol className="space-y-3">
          {download.steps.map((step, index) => (
            <li
              key={step}
              className="flex items-center gap-4 rounded-2xl bg-slate-50 p-4 dark:bg-ink-900"
            >
              <span className="grid size-9 shrink-0 place-items-center rounded-full bg-ink-900 text-sm font-bold text-white dark:bg-road-500 dark:text-ink-950">
                {index + 1}
              </span>
              {step}
            </li>
          ))}
        </ol>
        <div className="flex flex-col gap-4">
          <CtaLink
            placement="download"
            icon={MessageCircle}
            cta={{
              text: download.whatsapp,
              ctaType: "whatsapp",
              external: true,
              arrow: true,
              href: contactHref("whatsapp", site, contact),
            }}
          />
          <CtaLink
            placement="download"
            variant="secondary"
            icon={Mail}
            cta={{
              text: download.email,
              ctaType: "email",
              href: contactHref("email", site, contact),
            }}
          />
          <p className="flex gap-3 rounded-2xl border border-sand-300 bg-sand-100 p-4 text-ink-900 dark:border-ink-700 dark:bg-ink-900 dark:text-sand-300">
            <CalendarClock aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            {download.deadline}
          </p>
        </div>
      </div>
    </Section>
  );
}
