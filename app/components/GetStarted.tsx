import { Mail, MessageCircle } from "lucide-react";
import { CtaLink } from "~/components/CtaLink";
import { ShareMenu } from "~/components/ShareMenu";
import { contact } from "~/content/conversion";
import { getStarted } from "~/content/download";
import { useSite } from "~/hooks/use-site";
import { contactHref } from "~/lib/cta";

export function GetStarted() {
  const site = useSite();
  return (
    <section
      id="get-started"
      aria-labelledby="get-started-heading"
      className="scroll-mt-16 px-5 py-16 sm:py-24"
    >
      <div className="mx-auto max-w-4xl rounded-3xl bg-ink-900 px-6 py-12 text-center text-white sm:px-12 dark:bg-ink-800">
        <h2
          id="get-started-heading"
          className="text-3xl font-bold tracking-tight text-balance sm:text-4xl"
        >
          {getStarted.heading}
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-slate-300">{getStarted.body}</p>
        <div className="mt-8 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
          <CtaLink
            placement="get-started"
            icon={MessageCircle}
            className="dark:bg-road-500"
            cta={{
              text: getStarted.app,
              ctaType: "whatsapp",
              external: true,
              arrow: true,
              href: contactHref("whatsapp", site, contact),
            }}
          />
          <CtaLink
            placement="get-started"
            variant="secondary"
            icon={Mail}
            cta={{
              text: getStarted.email,
              ctaType: "email",
              href: contactHref("email", site, contact),
            }}
          />
          <ShareMenu
            siteUrl={site.siteUrl}
            placement="get-started"
            className="text-start text-slate-900 dark:text-white [&>summary]:flex [&>summary]:justify-center [&>summary]:bg-white dark:[&>summary]:bg-ink-900"
          />
        </div>
      </div>
    </section>
  );
}
