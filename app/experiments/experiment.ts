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

/** GA4's exp_variant_string for an assignment: tool, experiment and variant, hyphenated. */
export const expVariantString = ({ experiment, variant }: Assignment) =>
  `DRB-${experiment}-${variant}`;

/**
 * The variant a page showed, as its lead links carry it (`exp`, shared/cta.ts) and the no-JS view
 * image names it: its exp_variant_string, so a link, a report and GA4 all call a variant by one
 * name. Ids are letters, digits and "_" (the file's rule), so the hyphens can only separate them.
 */
export const variantToken = expVariantString;

const TOKEN = /^DRB-([A-Za-z0-9_]{1,40})-([A-Za-z0-9_]{1,40})$/;

/** A carried token read back: an assignment of its shape, or null for anything else. */
export function parseVariantToken(raw: string): Assignment | null {
  const match = TOKEN.exec(raw);
  return match ? { experiment: match[1] as string, variant: match[2] as string } : null;
}

/**
 * Why a lead counts toward no variant of the running experiment (experiments/credit.server.ts):
 * `no_variant`, its link carried none (the visitor landed on a page the test does not change, was
 * outside its traffic share, or a link lost it); `unknown_variant`, it carried one the running
 * experiment does not have (junk, another or a stopped experiment, a removed variant).
 */
export const SET_ASIDE_REASONS = ["no_variant", "unknown_variant"] as const;
export type SetAsideReason = (typeof SET_ASIDE_REASONS)[number];
