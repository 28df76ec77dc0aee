import { Fragment } from "react";
import { PageLink } from "~/components/PageLink";
import { useLocale } from "~/hooks/use-site";
import type { Inline, LegalBlock, LegalDocument, RichText } from "~/pages/legal-text.server";
import { localePath } from "~/shared/locale";

const CODE =
  "rounded bg-slate-100 px-1 font-mono text-[0.9em] [overflow-wrap:anywhere] dark:bg-ink-800";
const LINK =
  "font-medium text-road-700 underline underline-offset-4 hover:text-road-600 dark:text-road-500";

function InlinePart({ part }: { part: Inline }) {
  const locale = useLocale();
  if (typeof part === "string") return <>{part}</>;
  if ("code" in part) {
    // Names from the code read left to right in both languages, and may break anywhere.
    return (
      <code dir="ltr" className={CODE}>
        {part.code}
      </code>
    );
  }
  if ("quote" in part) {
    return (
      <code dir="auto" className={CODE}>
        {part.quote}
      </code>
    );
  }
  // A setting's value: its own direction, whatever the sentence's.
  if ("value" in part) return <bdi dir={part.ltr ? "ltr" : undefined}>{part.value}</bdi>;
  if ("page" in part) {
    return (
      <PageLink to={localePath(locale, part.page)} className={LINK}>
        {part.text}
      </PageLink>
    );
  }
  return (
    <a href={part.href} className={`${LINK} [overflow-wrap:anywhere]`}>
      {part.ltr ? <bdi dir="ltr">{part.text}</bdi> : part.text}
    </a>
  );
}

function Rich({ text }: { text: RichText }) {
  return (
    <>
      {text.map((part, index) => (
        // The parts of one sentence never move: their place is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <InlinePart key={index} part={part} />
      ))}
    </>
  );
}

function Block({ block }: { block: LegalBlock }) {
  if ("paragraph" in block) {
    return (
      <p>
        <Rich text={block.paragraph} />
      </p>
    );
  }
  return (
    <ul className="list-disc space-y-2 ps-5 marker:text-road-600">
      {block.list.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list from the loader, never reordered
        <li key={index}>
          <Rich text={item} />
        </li>
      ))}
    </ul>
  );
}

/**
 * The privacy notice or the terms, as the loader built them from the copy and the settings
 * (pages/privacy-notice.server.ts, pages/terms.server.ts): short sections a phone reads in one
 * column, each with an id to link to.
 */
export function LegalPage({ page }: { page: LegalDocument }) {
  return (
    <article className="mx-auto max-w-2xl px-5 py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{page.heading}</h1>
      <p className="mt-3 text-lg text-slate-700 dark:text-slate-300">{page.intro}</p>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{page.updated}</p>
      {page.sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`}>
          <h2 id={`${section.id}-heading`} className="mt-10 text-xl font-semibold text-balance">
            {section.heading}
          </h2>
          <div className="mt-3 space-y-3 leading-relaxed text-slate-700 dark:text-slate-300">
            {section.blocks.map((block, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a section's blocks never move
              <Fragment key={index}>
                <Block block={block} />
              </Fragment>
            ))}
          </div>
        </section>
      ))}
    </article>
  );
}
