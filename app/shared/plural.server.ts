import { CATEGORIES, type Counting, TABLE_SIZE } from "~/shared/plural";

// Worked out once per tag: the Arabic copy and the browser's words both ask for Arabic's.
const made = new Map<string, Counting>();

/** The Counting of a language, from this server's ICU. */
export function countingFor(intl: string): Counting {
  let counting = made.get(intl);
  if (!counting) {
    counting = count(intl);
    made.set(intl, counting);
  }
  return counting;
}

function count(intl: string): Counting {
  const rules = new Intl.PluralRules(intl);
  // The site writes Western digits in both languages (shared/locale.ts), so the browser can
  // write a count under 100 as it is.
  if (new Intl.NumberFormat(intl).format(9876543210).replace(/\D/g, "") !== "9876543210") {
    throw new Error(`${intl}: counts must be written in Western digits, as shared/locale.ts says`);
  }
  const join = new Intl.ListFormat(intl, { type: "conjunction" });
  const slots = ["{0}", "{1}", "{2}"];
  return {
    intl,
    categories: Array.from({ length: TABLE_SIZE }, (_, count) =>
      CATEGORIES.indexOf(rules.select(count)),
    ).join(""),
    lists: [1, 2, 3].map((size) => join.format(slots.slice(0, size))),
  };
}
