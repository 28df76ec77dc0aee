/**
 * A variant's copy in place of the page's own: the static parts read the page's words through
 * useCopy (hooks/use-copy.server.ts), which applies the changes of the variant the document was
 * rendered for. The render (document/pipeline.server.tsx) provides them; nothing reaches the
 * browser but the rendered words (docs/decisions/022-experiments.md).
 */
import { createContext } from "react";
import type { Copy } from "~/content/copy.server";
import type { VariantCopy } from "~/shared/experiment";
import type { Locale } from "~/shared/locale";

/** The changes of the variant this document shows; null: the page as it is. */
export const VariantCopyContext = createContext<VariantCopy | null>(null);

/** `copy` with `changes` in `locale` applied: the hero's words, and its main action's label. */
export function withVariantCopy<C extends Copy>(copy: C, changes: VariantCopy, locale: Locale): C {
  const text = (key: keyof VariantCopy) => changes[key]?.[locale];
  const [main, ...others] = copy.heroCtas;
  const label = text("hero.mainAction");
  return {
    ...copy,
    landing: {
      ...copy.landing,
      hero: {
        ...copy.landing.hero,
        headline: text("hero.headline") ?? copy.landing.hero.headline,
        lead: text("hero.subheadline") ?? copy.landing.hero.lead,
        next: text("hero.mainActionNote") ?? copy.landing.hero.next,
      },
    },
    // The hero's main action and the sticky bar's, which repeats it.
    heroCtas: [label ? { ...main, text: label } : main, ...others],
  };
}
