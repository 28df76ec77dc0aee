/**
 * Counted nouns in Arabic. A number and its noun agree in five ways, which are CLDR's plural
 * categories for "ar": 1 and 2 say the noun alone ("يوم واحد", "يومان"), 3–10 take the plural
 * ("3 أيام"), 11–99 the singular in the accusative ("11 يومًا"), and 100, 101, 102, 1000…
 * the singular after the number ("100 يوم"). The categories look at the last two digits, so
 * 103 is "few" again and 111 "many": Intl.PluralRules knows this, a `count === 1` test does not.
 */
const rules = new Intl.PluralRules("ar");

/** The site writes Western digits in Arabic copy, as the rest of the page does. */
const digits = new Intl.NumberFormat("ar-AE-u-nu-latn", { maximumFractionDigits: 2 });

/**
 * A noun's forms after a number. `one` and `two` are whole phrases, without a digit; the others
 * follow the number. Write the case the sentence needs: after a preposition the dual is
 * "يومين", not "يومان".
 */
export type CountedNoun = {
  /** 1: "يوم واحد". */
  readonly one: string;
  /** 2: the dual, "يومان". */
  readonly two: string;
  /** 3–10 (and 103–110, …): the plural, "أيام". */
  readonly few: string;
  /** 11–99 (and 111–199, …): the singular, accusative, "يومًا". */
  readonly many: string;
  /** 100–102, 1000, fractions, …: the singular, "يوم". */
  readonly other: string;
  /** 0, as a whole phrase. Unset: the number and the `other` form ("0 يوم"), as CLDR writes it. */
  readonly zero?: string;
};

/** `count` with its noun, in the form Arabic grammar gives that number. */
export function counted(count: number, noun: CountedNoun): string {
  const category = rules.select(count);
  switch (category) {
    case "one":
      return noun.one;
    case "two":
      return noun.two;
    case "zero":
      return noun.zero ?? `${digits.format(count)} ${noun.other}`;
    default:
      return `${digits.format(count)} ${noun[category]}`;
  }
}

/**
 * Joins counted parts the Arabic way: "و" before every part after the first, written onto the
 * word it joins and with no commas ("يومان و3 ساعات و5 دقائق").
 */
export function andList(parts: readonly string[]): string {
  return parts.join(" و");
}
