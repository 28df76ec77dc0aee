/**
 * Copy that counts, as data rather than code, so it can travel with a page's loader data:
 * one phrase per CLDR plural category, "{count}" standing for the number. English needs `one`
 * and `other`; Arabic also `two`, `few` and `many` (and the phrase for 1 and 2 carries no digit).
 */
export type CountedForms = { readonly other: string } & {
  readonly [category in Intl.LDMLPluralRule]?: string;
};

/**
 * How a language writes and counts small numbers, worked out once by the server's ICU and sent
 * with the page. A browser's first Intl.NumberFormat or Arabic Intl.PluralRules loads ICU data
 * for 8–28 ms on the main thread; the countdown would pay that while hydrating, on every visit.
 */
export type Counting = {
  /** A BCP 47 tag ("ar-AE-u-nu-latn"), for counts past the tables below. */
  intl: string;
  /** The plural category of each count from 0 to 99, one digit each: its index in CATEGORIES. */
  categories: string;
  /** How one, two and three items are joined: "{0}", "{0} and {1}", "{0}, {1}, and {2}". */
  lists: readonly string[];
};

export const CATEGORIES: readonly Intl.LDMLPluralRule[] = [
  "zero",
  "one",
  "two",
  "few",
  "many",
  "other",
];
/** Counts from 0 to TABLE_SIZE - 1 are in a Counting's table. */
export const TABLE_SIZE = 100;

/** `count` in the phrase its language's grammar gives it. */
export function counted(counting: Counting, count: number, forms: CountedForms): string {
  // Only whole counts from 0 to 99 are in the table.
  const index = counting.categories[count];
  const [category, number] = index
    ? [CATEGORIES[Number(index)], String(count)]
    : [
        new Intl.PluralRules(counting.intl).select(count),
        new Intl.NumberFormat(counting.intl).format(count),
      ];
  return fill((category && forms[category]) ?? forms.other, { count: number });
}

/** Puts values into "{name}" slots; a slot with no value stays as it is. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (slot, name: string) => values[name] ?? slot);
}

/** "a, b and c" in the language's own way ("a وb وc" in Arabic). */
export function listOf(counting: Counting, parts: readonly string[]): string {
  const pattern = counting.lists[parts.length - 1];
  return pattern
    ? pattern.replace(/\{(\d)\}/g, (_, index: string) => parts[Number(index)] ?? "")
    : new Intl.ListFormat(counting.intl, { type: "conjunction" }).format(parts);
}
