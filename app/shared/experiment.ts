/**
 * What an experiments file (EXPERIMENTS_FILE) describes, once checked (experiments-file.server.ts):
 * tests of the landing page's copy against itself (docs/decisions/022-experiments.md).
 */
import type { Locale } from "~/shared/locale";

/** The copy a variant may change, by the name a marketer writes in the file. */
export const COPY_KEYS = [
  "hero.headline",
  "hero.subheadline",
  "hero.mainAction",
  "hero.mainActionNote",
] as const;
export type CopyKey = (typeof COPY_KEYS)[number];

/** Every override is written in both languages. */
export type VariantCopy = Partial<Record<CopyKey, Record<Locale, string>>>;

export type Variant = {
  /** Letters, digits and "_": it goes into GA4's exp_variant_string between hyphens. */
  id: string;
  /** Its share of the experiment's visitors, relative to the other variants' weights. */
  weight: number;
  /** What it changes; the first variant is the control, the page as it is, and changes nothing. */
  copy: VariantCopy;
};

export type Experiment = {
  id: string;
  status: "running" | "stopped";
  /** The share of visitors (0–1) who take part; the rest see the control and are not counted. */
  traffic: number;
  /** Two or more; the first is the control. */
  variants: Variant[];
};

/** The variant one visitor takes part with. */
export type Assignment = { experiment: string; variant: string };

/** What GA4 gets when a visitor first sees a variant that day, as Google names it for testing tools. */
export const EXPOSURE_EVENT = "experience_impression";
