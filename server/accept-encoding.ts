/**
 * Whether a request's Accept-Encoding takes a coding: named with a weight above 0, or, when not
 * named at all, through "*" (RFC 9110 §12.5.3: "*" stands only for the codings the header does
 * not list). No header takes none but identity.
 */
export function accepts(header: string | undefined | null, coding: "br" | "gzip"): boolean {
  if (!header) return false;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name.trim(), Number.isNaN(weight) ? 0 : weight);
  }
  return (weights.get(coding) ?? weights.get("*") ?? 0) > 0;
}
