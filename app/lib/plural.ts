/**
 * Copy that counts, as data rather than code, so it can travel with a page's loader data:
 * one phrase per CLDR plural category, "{count}" standing for the number. English needs `one`
 * and `other`; Arabic also `two`, `few` and `many` (and the phrase for 1 and 2 carries no digit).
 */
export type CountedForms = { readonly other: string } & {
  readonly [category in Intl.LDMLPluralRule]?: string;
};

/** `count` in the phrase its language's grammar gives it. `intl` is a BCP 47 tag ("ar-AE-u-nu-latn"). */
export function counted(intl: string, count: number, forms: CountedForms): string {
  const phrase = forms[new Intl.PluralRules(intl).select(count)] ?? forms.other;
  return fill(phrase, { count: new Intl.NumberFormat(intl).format(count) });
}

/** Puts values into "{name}" slots; a slot with no value stays as it is. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (slot, name: string) => values[name] ?? slot);
}

/** "a, b and c" in the language's own way ("a وb وc" in Arabic). */
export function listOf(intl: string, parts: readonly string[]): string {
  return new Intl.ListFormat(intl, { type: "conjunction" }).format(parts);
}
