/**
 * The page's head goes to the browser once (docs/decisions/011-document-in-one-round-trip.md).
 *
 * Each page's loader builds its head tags (pages/head.server.ts) and Remix renders them into the
 * <head>, then sends the same loader data again as `window.__remixContext` at the end of the
 * document, for hydration: titles, descriptions and addresses too far from the <head> for
 * gzip's window to find, so they would be paid for twice (the record has the figures). The
 * browser's `meta` reads those tags back from the <head> it already has (shared/route-meta.ts);
 * a client-side navigation's data request still carries them.
 *
 * Remix hands the document its data as `EntryContext.serverHandoffString`: JSON escaped for a
 * <script> (server-runtime's createServerHandoffString). This takes `head` out of every route's
 * loader data in it and escapes it the same way. Anything it does not recognise, it leaves alone
 * and says so (handoff.server.test.ts holds it to the installed Remix).
 */

// The same characters Remix escapes (@remix-run/server-runtime's markup.js), for the same reason:
// the JSON sits inside a <script>, where "</script>" or "<!--" must never appear.
const SCRIPT_UNSAFE = /[&><\u2028\u2029]/g;
const ESCAPED: Record<string, string> = {
  "&": "\\u0026",
  ">": "\\u003e",
  "<": "\\u003c",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

export const escapeForScript = (json: string) =>
  json.replace(SCRIPT_UNSAFE, (character) => ESCAPED[character] ?? character);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The handoff without the routes' `head`, or null when it is not the shape this knows. */
export function handoffWithoutHeads(handoff: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(handoff);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || !isRecord(parsed.state) || !isRecord(parsed.state.loaderData)) {
    return null;
  }
  for (const data of Object.values(parsed.state.loaderData)) {
    if (isRecord(data) && Array.isArray(data.head)) delete data.head;
  }
  return escapeForScript(JSON.stringify(parsed));
}

let warned = false;

/** The handoff to send: without the heads, or Remix's own (and one log line) when unknown. */
export function sendHeadOnce(handoff: string | undefined): string | undefined {
  if (handoff === undefined) return handoff;
  const pruned = handoffWithoutHeads(handoff);
  if (pruned === null && !warned) {
    warned = true;
    console.error(
      "document: Remix's serverHandoffString is not the JSON this site knows; every page's head is sent twice until handoff.server.ts learns the new shape",
    );
  }
  return pruned ?? handoff;
}
