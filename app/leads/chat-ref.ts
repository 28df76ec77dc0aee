/**
 * The reference a WhatsApp lead's message carries ("Ref DRB-7K2QX"), so that the chat it starts
 * can be tied back to its lead and campaign (docs/decisions/016-lead-ledger.md). Five characters
 * from an alphabet without look-alikes (no 0/O, 1/I/L, U/V), in capitals a person reads aloud.
 */

export const REF_ALPHABET = "23456789ABCDEFGHJKMNPQRSTWXYZ";
export const REF_LENGTH = 5;
const PREFIX = "DRB-";

/** A reference from 8 bytes of a digest: the same bytes give the same reference. */
export function refFromBytes(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes.subarray(0, 8)) value = (value << 8n) | BigInt(byte);
  let ref = "";
  const base = BigInt(REF_ALPHABET.length);
  for (let i = 0; i < REF_LENGTH; i++) {
    ref += REF_ALPHABET[Number(value % base)];
    value /= base;
  }
  return `${PREFIX}${ref}`;
}

const FOUND = new RegExp(`\\bDRB[-\\s]?([${REF_ALPHABET}]{${REF_LENGTH}})\\b`, "gi");

/**
 * The reference a chat message quotes, in its canonical form, or null. The last one counts: the
 * site's own link puts the visitor's at the end, after whatever text came before it.
 */
export function refInText(text: string): string | null {
  let last: string | undefined;
  for (const match of text.matchAll(FOUND)) last = match[1];
  return last ? `${PREFIX}${last.toUpperCase()}` : null;
}

/**
 * A WhatsApp link whose prefilled message ends with the reference; any other link as it is.
 * The reference goes on a line of its own, so that editing the greeting leaves it whole.
 */
export function withChatRef(target: string, ref: string, label: string): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return target;
  }
  if (
    url.protocol !== "https:" ||
    (url.hostname !== "wa.me" && url.hostname !== "api.whatsapp.com")
  )
    return target;
  const text = url.searchParams.get("text");
  const line = `${label} ${ref}`;
  const message = text ? `${text}\n\n${line}` : line;
  // wa.me reads %20, not "+", as a space: encoded as whatsappLink encodes it.
  url.search = "";
  const rest = [...new URL(target).searchParams].filter(([name]) => name !== "text");
  const query = [
    `text=${encodeURIComponent(message)}`,
    ...rest.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`),
  ];
  return `${url.origin}${url.pathname}?${query.join("&")}`;
}
