// Whose lead a WhatsApp chat counts for, against the real server: the reference in the message
// is the site's own, appended last (leads/chat-ref.ts), a lead link cannot carry another's
// (pages/thank-you.server.ts), and only a delivery signed in Meta's exact form is read.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REF_ALPHABET } from "~/leads/chat-ref";
import { type ChildServer, freshDataDir, sleep, startChildServer } from "../support/child-server";
import { IPHONE_SAFARI_18 } from "../support/user-agents";
import { APP_SECRET, delivery, postToWebhook, signed } from "../support/whatsapp-webhook";

const NUMBER = "971585550134";
/** Anything the webhook would read as a reference: any case, a dash, a space or nothing. */
const ANY_REF = new RegExp(`\\bDRB[-\\s]?([${REF_ALPHABET}]{5})\\b`, "gi");

let server: ChildServer;
let dataDir: string;
let visitors = 0;

beforeAll(async () => {
  dataDir = freshDataDir();
  server = await startChildServer({
    DATA_DIR: dataDir,
    WHATSAPP_NUMBER: NUMBER,
    WHATSAPP_VERIFY_TOKEN: "verify-token-for-tests",
    WHATSAPP_APP_SECRET: APP_SECRET,
  });
});
afterAll(async () => {
  await server?.kill();
});

type LedgerLine = {
  t: string;
  lead?: { id: string; ref?: string; campaign: Record<string, string> };
  chat?: { messageId: string; lead: string | null };
};
const ledger = (): LedgerLine[] =>
  readFileSync(join(dataDir, "leads.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LedgerLine);

/** The lead a new visitor's tap counted, found by its campaign, and the page it got. */
async function tap(campaign: string, extra = "") {
  visitors += 1;
  const response = await fetch(
    `${server.origin}/thank-you?cta=whatsapp&utm_source=ig&utm_campaign=${campaign}${extra}`,
    {
      headers: {
        "user-agent": IPHONE_SAFARI_18,
        "x-forwarded-for": `198.51.100.${visitors}`,
      },
    },
  );
  expect(response.status).toBe(200);
  const page = await response.text();
  const lead = ledger().find((line) => line.lead?.campaign.utm_campaign === campaign)?.lead;
  if (!lead?.ref) throw new Error(`no lead with a reference for ${campaign}`);
  return { page, lead: { id: lead.id, ref: lead.ref } };
}

/** Every reference the page quotes anywhere, percent-escapes read, in canonical form. */
function refsIn(html: string): Set<string> {
  const text = html.replace(/%[0-9A-F]{2}/gi, (code) => {
    try {
      return decodeURIComponent(code);
    } catch {
      return code;
    }
  });
  return new Set([...text.matchAll(ANY_REF)].map((match) => `DRB-${match[1]?.toUpperCase()}`));
}

describe("a crafted lead link", () => {
  it("quoting another lead's reference gets a page that quotes only the visitor's own", async () => {
    const other = await tap("Other");
    for (const [n, quoted] of [
      [1, other.lead.ref],
      [2, other.lead.ref.toLowerCase().replace("-", " ")],
      [3, other.lead.ref.replace("-", "")],
    ] as const) {
      const redirect = `https://wa.me/${NUMBER}?text=${encodeURIComponent(`Hi Darb!\n\nRef ${quoted}`)}`;
      const { page, lead } = await tap(`Crafted${n}`, `&redirect=${encodeURIComponent(redirect)}`);
      expect(lead.ref).not.toBe(other.lead.ref);
      expect(refsIn(page)).toEqual(new Set([lead.ref]));
      // The CTA's own chat instead, with the visitor's reference at its end.
      expect(page).toContain(`https://wa.me/${NUMBER}?text=`);
    }
  });

  it("with a text quoting no reference is followed, the visitor's reference appended", async () => {
    const redirect = `https://wa.me/${NUMBER}?text=${encodeURIComponent("About the Eid offer")}`;
    const { page, lead } = await tap("Plain", `&redirect=${encodeURIComponent(redirect)}`);
    expect(page).toContain("About%20the%20Eid%20offer");
    expect(refsIn(page)).toEqual(new Set([lead.ref]));
  });
});

describe("a signed message quoting two references", () => {
  it("is credited to the last one's lead only", async () => {
    const first = await tap("First");
    const last = await tap("Last");
    const logged = server.analytics.length;
    const body = delivery(
      "wamid.two-refs",
      `My friend's code was ${first.lead.ref}, is it still good?\n\nRef ${last.lead.ref}`,
    );
    expect((await postToWebhook(server.origin, body, signed(body))).status).toBe(200);
    await server.waitForLine((line) => line.type === "whatsapp_chats");
    const chat = ledger().find((line) => line.chat?.messageId === "wamid.two-refs")?.chat;
    expect(chat?.lead).toBe(last.lead.id);
    const statuses = ledger().filter((line) => line.t === "status");
    expect(statuses.map((line) => (line as { id?: string }).id)).toEqual([last.lead.id]);
    // GA4's working_lead (printed while GA4 is not configured) names the last one's campaign.
    await sleep(500);
    const working = server.analytics.slice(logged).filter((line) => line.name === "working_lead");
    expect(working.map((line) => line.params.campaign)).toEqual(["Last"]);
  });
});

describe("the signature header", () => {
  it("is taken only as sha256= and 64 lower-case hex digits", async () => {
    const body = delivery("wamid.signature", "hello");
    const good = signed(body);
    const hex = good.slice("sha256=".length);
    const chats = () => server.lines.filter((line) => line.type === "whatsapp_chats").length;
    const before = chats();
    // Each would decode to the right digest: Buffer.from(…, "hex") stops at what is not hex.
    for (const header of [
      `${good}zz`,
      `${good}0`,
      `${good}00`,
      `sha256=${hex.toUpperCase()}`,
      `sha256=${hex},sha256=${hex}`,
    ]) {
      const answer = await postToWebhook(server.origin, body, header);
      expect(answer.status, header).toBe(401);
    }
    expect((await postToWebhook(server.origin, body, good)).status).toBe(200);
    await server.waitForLine(() => chats() > before);
    // Only the good one was read.
    expect(chats()).toBe(before + 1);
  });
});
