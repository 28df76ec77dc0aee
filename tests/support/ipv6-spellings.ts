// IPv6 addresses as fast-check values: their eight 16-bit groups, and the many ways RFC 4291
// lets one write the same groups (case, leading zeros, `::` over any run of zeros, the last 32
// bits as a dotted IPv4, a zone id), so tests can hold that every spelling is one address.
import fc from "fast-check";

/** A group, zero often: runs of zeros are what `::` compresses. */
const group = fc.oneof(
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 0xffff }) },
);

/** An IPv6 address's eight groups. */
export const ipv6Groups = fc.array(group, { minLength: 8, maxLength: 8 });

/** An IPv4-mapped IPv6 address's groups: `::ffff:` and the IPv4's 32 bits. */
export const mappedGroups = fc
  .tuple(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff }))
  .map(([high, low]) => [0, 0, 0, 0, 0, 0xffff, high, low]);

export const isMapped = (groups: number[]) =>
  groups.slice(0, 5).every((value) => value === 0) && groups[5] === 0xffff;

/** The dotted IPv4 that two groups are. */
export const dottedQuad = (high = 0, low = 0) =>
  [high >> 8, high & 255, low >> 8, low & 255].join(".");

/** Every run of zero groups, as [start, end): each may be written `::`. */
function zeroRuns(groups: number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let start = 0; start < groups.length; start++) {
    for (let end = start + 1; end <= groups.length && groups[end - 1] === 0; end++) {
      runs.push([start, end]);
    }
  }
  return runs;
}

/** One spelling of `groups`, chosen at random among those RFC 4291 allows. */
export function ipv6Spelling(groups: number[]): fc.Arbitrary<string> {
  const runs = zeroRuns(groups);
  const eight = <T>(item: fc.Arbitrary<T>) => fc.array(item, { minLength: 8, maxLength: 8 });
  return fc
    .record({
      padding: eight(fc.integer({ min: 0, max: 3 })),
      upper: eight(fc.boolean()),
      run: runs.length > 0 ? fc.option(fc.constantFrom(...runs)) : fc.constant(null),
      dotted: fc.boolean(),
      zone: fc.option(fc.constantFrom("eth0", "1", "wlan0")),
    })
    .map(({ padding, upper, run, dotted, zone }) => {
      const text = groups.map((value, n) => {
        const hex = value.toString(16);
        const padded = hex.padStart(Math.min(4, hex.length + (padding[n] ?? 0)), "0");
        return upper[n] ? padded.toUpperCase() : padded;
      });
      // A dotted tail stands for the last two groups, so `::` may not reach into them.
      const withDotted = dotted && (run === null || run[1] <= 6);
      const body = withDotted ? text.slice(0, 6) : text;
      const tail = withDotted ? [dottedQuad(groups[6], groups[7])] : [];
      const written = run
        ? `${body.slice(0, run[0]).join(":")}::${[...body.slice(run[1]), ...tail].join(":")}`
        : [...body, ...tail].join(":");
      return zone ? `${written}%${zone}` : written;
    });
}

/** Two spellings of one address. */
export const twoSpellings = (groups: fc.Arbitrary<number[]>) =>
  groups.chain((chosen) =>
    fc.tuple(fc.constant(chosen), ipv6Spelling(chosen), ipv6Spelling(chosen)),
  );
