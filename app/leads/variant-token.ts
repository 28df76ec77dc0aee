/**
 * A variant's one name: the token a page puts on its lead links (`exp`, shared/cta.ts) and its
 * no-JS view image, a report's column and GA4's exp_variant_string are the same string.
 */
import type { Assignment } from "~/shared/experiment";

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
