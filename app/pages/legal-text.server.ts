import { brand } from "~/content/brand";
import type { Copy } from "~/content/copy.server";
import type { Config } from "~/platform/config.server";
import type { Company } from "~/platform/public-settings.server";
import { LOCALE_INFO, type Locale } from "~/shared/locale";

/**
 * A legal page as its loader sends it (routes/privacy.tsx, routes/terms.tsx): the copy with every
 * setting and code name already in place, and only the sections this server's settings call for,
 * so the page component only lays it out (components/LegalPage.tsx).
 */

/**
 * A run of words; a name from the code (shown as code, left to right); a quoted line; a
 * setting's value, set apart from the words around it (an English company name in an Arabic
 * sentence); or a link.
 */
export type Inline =
  | string
  | { code: string }
  /** A line of a message as the visitor sees it, in its own language's direction. */
  | { quote: string }
  | { value: string; ltr?: boolean }
  | {
      href: string;
      text: string;
      /** An address or number, read left to right in either language. */
      ltr?: boolean;
    }
  /** A page of this site, by its English path (the page puts it in its own language). */
  | { page: string; text: string };
export type RichText = Inline[];
export type LegalBlock = { paragraph: RichText } | { list: RichText[] };
export type LegalSection = { id: string; heading: string; blocks: LegalBlock[] };
export type LegalDocument = {
  heading: string;
  intro: string;
  /** "Last updated 26 November 2026." */
  updated: string;
  sections: LegalSection[];
};

/**
 * `template` with each "{slot}" replaced by its value. A slot without a value is a fault of
 * ours (copy and code disagree), so it throws rather than print braces to a visitor.
 */
export function rich(template: string, values: Record<string, Inline> = {}): RichText {
  const parts: RichText = [];
  let last = 0;
  for (const match of template.matchAll(/\{(\w+)\}/g)) {
    const value = values[match[1] ?? ""];
    if (value === undefined) throw new Error(`no value for ${match[0]} in "${template}"`);
    if (match.index > last) parts.push(template.slice(last, match.index));
    parts.push(value);
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  return parts;
}

/** A section's body as copy writes it: a string is a paragraph, a list of strings a list. */
export function blocksOf(
  body: readonly (string | readonly string[])[],
  values: Record<string, Inline> = {},
): LegalBlock[] {
  return body.map((part) =>
    typeof part === "string"
      ? { paragraph: rich(part, values) }
      : { list: part.map((item) => rich(item, values)) },
  );
}

export const emailLink = (email: string): Inline => ({
  href: `mailto:${email}`,
  text: email,
  ltr: true,
});

/**
 * Who runs the site, from the COMPANY_* settings: the company's name, licence and registered
 * address, each only while it is set; with no name, the team behind the app, never a made-up one.
 */
export function companyBlocks(copy: Copy, company: Company): LegalBlock[] {
  const words = copy.legal.company;
  const operator = company.name === null ? words.unnamed : { value: company.name };
  const details = [
    company.licence === null
      ? null
      : rich(words.licence, { licence: { value: company.licence, ltr: true } }),
    company.address === null ? null : rich(words.address, { address: { value: company.address } }),
  ].filter((line) => line !== null);
  return [
    { paragraph: rich(words.runBy, { operator }) },
    ...(details.length > 0 ? [{ list: details }] : []),
  ];
}

const dateFormats = new Map<Locale, Intl.DateTimeFormat>();

/** "Last updated 26 November 2026.", on Dubai's calendar, in the page's language. */
export function updatedLine(copy: Copy, locale: Locale, iso: string): string {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE_INFO[locale].intl, {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: brand.timeZone,
    });
    dateFormats.set(locale, format);
  }
  return copy.legal.updated.replace("{date}", format.format(new Date(iso)));
}

/** What both legal pages are made from: the page's language, its copy and the settings. */
export type LegalContext = { copy: Copy; locale: Locale; config: Config };
