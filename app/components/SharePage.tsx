import { Copy, Share2 } from "lucide-react";
import { Icon } from "~/components/Icon";
import type { Copy as SiteCopy } from "~/content/copy.server";
import { usePlatform, useSite, useUi } from "~/hooks/use-site";
import { displayLink, sharePlatformsFor } from "~/share/share-page";
import { useShare } from "~/share/use-share";
import { wordingFor } from "~/shared/platform";
import { fill } from "~/shared/plural";

const BUTTON =
  "inline-flex min-h-12 items-center justify-center gap-2 rounded-xl px-5 py-3 font-semibold transition-colors";
const PRIMARY = `${BUTTON} bg-road-700 text-white hover:bg-road-600 dark:bg-road-500 dark:text-ink-950 dark:hover:bg-road-600`;
const SECONDARY = `${BUTTON} border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-ink-700 dark:bg-ink-900 dark:text-white dark:hover:bg-ink-800`;

export function SharePage({
  preview,
  copy,
}: {
  /** The shared link's own preview: its title and its description in this platform's words. */
  preview: { title: string; description: string };
  /** The page's words, in its language, from the loader. */
  copy: { page: SiteCopy["sharePage"]; messages: SiteCopy["shareMessages"] };
}) {
  const site = useSite();
  const { share } = useUi();
  const sharePage = copy.page;
  const platform = usePlatform();
  const message = wordingFor(copy.messages, platform);
  const actions = useShare({ siteUrl: site.siteUrl, placement: "share-page", text: message });
  // The network asked for (?platform=, its source or its crawler) leads, else WhatsApp.
  const networks = sharePlatformsFor(platform);
  const lead = networks[0] === platform ? platform : null;
  // Shown as people read it ("darb.ae/ar"); what is copied or sent keeps its ?source=.
  const shownLink = displayLink(actions.linkFor("copy"));

  return (
    <div className="mx-auto grid max-w-6xl gap-12 px-5 py-12 sm:py-20 lg:grid-cols-2">
      <div className="flex flex-col gap-6">
        <h1 className="text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
          {sharePage.heading}
        </h1>
        <p className="text-lg text-slate-700 dark:text-slate-300">{sharePage.intro}</p>

        <h2 className="text-xl font-semibold">{sharePage.platformsHeading}</h2>
        <ul className="grid gap-3 sm:grid-cols-2">
          {networks.map((network, index) => (
            <li key={network}>
              <a
                href={actions.hrefFor(network)}
                target="_blank"
                rel="noopener noreferrer"
                onClick={(event) => actions.openPlatform(network, event)}
                className={`${index === 0 ? PRIMARY : SECONDARY} w-full`}
              >
                {/* On the filled button the mark takes the text's colour (icons.server.tsx). */}
                <Icon
                  name={`brand-${network}`}
                  className={index === 0 ? "size-5 [--mark:currentColor]" : "size-5"}
                />
                {fill(sharePage.shareOn, { network: share.platforms[network] })}
                <span className="sr-only"> {share.opensInNewWindow}</span>
              </a>
            </li>
          ))}
        </ul>

        <h2 className="text-xl font-semibold">{sharePage.linkHeading}</h2>
        <p className="truncate rounded-xl border border-slate-200 bg-slate-50 px-4 py-3 font-mono text-sm dark:border-ink-800 dark:bg-ink-900">
          <bdi dir="ltr">{shownLink}</bdi>
        </p>
        {actions.canCopy || actions.canShareNatively ? (
          <div className="flex flex-col gap-3 sm:flex-row">
            {actions.canCopy ? (
              <button type="button" onClick={() => actions.copyLink()} className={SECONDARY}>
                <Copy aria-hidden="true" className="size-5" />
                {share.copyLink}
              </button>
            ) : null}
            {actions.canShareNatively ? (
              <button type="button" onClick={() => actions.shareNatively()} className={SECONDARY}>
                <Share2 aria-hidden="true" className="size-5" />
                {sharePage.native}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>

      <section aria-labelledby="share-preview-heading" className="flex flex-col gap-4">
        <h2 id="share-preview-heading" className="text-xl font-semibold">
          {sharePage.previewHeading}
        </h2>
        {lead ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {fill(sharePage.previewFor, { network: share.platforms[lead] })}
          </p>
        ) : null}
        <div className="rounded-3xl bg-[#e7f3ef] p-4 sm:p-6 dark:bg-ink-900">
          <figure className="ms-auto max-w-md rounded-2xl rounded-se-sm bg-white p-2 shadow-sm dark:bg-ink-800">
            <div className="overflow-hidden rounded-xl bg-slate-100 dark:bg-ink-950">
              <img
                src="/og-preview.webp"
                width={600}
                height={315}
                alt=""
                decoding="async"
                className="h-auto w-full"
              />
              <div className="px-3 py-2">
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {new URL(site.siteUrl).host}
                </p>
                <p className="text-sm font-semibold">{preview.title}</p>
                <p className="text-sm text-slate-700 dark:text-slate-300">{preview.description}</p>
              </div>
            </div>
            <figcaption className="px-2 pt-2 pb-1 text-[15px] leading-snug">
              {message}{" "}
              <bdi
                dir="ltr"
                className="inline-block max-w-full truncate align-bottom text-road-700 dark:text-road-500"
              >
                {shownLink}
              </bdi>
            </figcaption>
          </figure>
        </div>
      </section>
    </div>
  );
}
