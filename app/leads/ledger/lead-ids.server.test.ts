import { describe, expect, it } from "vitest";
import { REF_ALPHABET, refInText } from "~/leads/chat-ref";
import { chatRef, leadId, previousWindow } from "~/leads/ledger/lead-ids.server";
import { DEDUPE_WINDOW_MS } from "~/leads/limits.server";

const SALT = "salt-0123456789";
const CLIENT = "1234567.7654321";
const KEY = "whatsapp|instagram|";
/** The start of a dedupe window. */
const WINDOW = Math.floor(1_764_000_000_000 / DEDUPE_WINDOW_MS) * DEDUPE_WINDOW_MS;
const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("leadId", () => {
  it("gives the same id for the same salt, visitor, lead and window, call after call", () => {
    const id = leadId(SALT, CLIENT, KEY, WINDOW + 1000);
    expect(leadId(SALT, CLIENT, KEY, WINDOW + 1000)).toBe(id);
    // Anywhere in the same 30-minute window.
    expect(leadId(SALT, CLIENT, KEY, WINDOW)).toBe(id);
    expect(leadId(SALT, CLIENT, KEY, WINDOW + DEDUPE_WINDOW_MS - 1)).toBe(id);
  });

  it("gives another id in another window", () => {
    const id = leadId(SALT, CLIENT, KEY, WINDOW);
    expect(leadId(SALT, CLIENT, KEY, WINDOW + DEDUPE_WINDOW_MS)).not.toBe(id);
    expect(leadId(SALT, CLIENT, KEY, WINDOW - 1)).not.toBe(id);
  });

  it("finds the window before with previousWindow", () => {
    const at = WINDOW + 5 * 60_000;
    expect(leadId(SALT, CLIENT, KEY, previousWindow(at))).toBe(
      leadId(SALT, CLIENT, KEY, WINDOW - 1),
    );
    expect(leadId(SALT, CLIENT, KEY, previousWindow(at))).not.toBe(leadId(SALT, CLIENT, KEY, at));
  });

  it("gives another id for another salt, visitor or lead", () => {
    const ids = new Set([
      leadId(SALT, CLIENT, KEY, WINDOW),
      leadId("another salt", CLIENT, KEY, WINDOW),
      leadId(SALT, "1.2", KEY, WINDOW),
      leadId(SALT, CLIENT, "email|instagram|", WINDOW),
      leadId(SALT, CLIENT, "whatsapp|instagram|pro", WINDOW),
    ]);
    expect(ids.size).toBe(5);
  });

  it("is shaped as a UUID of version 8 with the RFC variant", () => {
    const variants = new Set<string>();
    for (let n = 0; n < 200; n++) {
      const id = leadId(SALT, `client-${n}`, KEY, WINDOW);
      expect(id).toMatch(UUID_V8);
      variants.add(id[19] as string);
    }
    // The variant nibble keeps two bits of the hash: all four values turn up.
    expect([...variants].sort()).toEqual(["8", "9", "a", "b"]);
  });
});

describe("chatRef", () => {
  const id = leadId(SALT, CLIENT, KEY, WINDOW);

  it("gives the same reference for the same lead, one a message can quote", () => {
    const ref = chatRef(id, () => false);
    expect(ref).toMatch(new RegExp(`^DRB-[${REF_ALPHABET}]{5}$`));
    expect(chatRef(id, () => false)).toBe(ref);
    expect(refInText(`Hi\n\nRef ${ref.toLowerCase()}`)).toBe(ref);
    expect(chatRef(leadId(SALT, CLIENT, KEY, WINDOW + DEDUPE_WINDOW_MS), () => false)).not.toBe(
      ref,
    );
  });

  it("passes over references other leads hold, the same way every time", () => {
    const first = chatRef(id, () => false);
    const asked: string[] = [];
    const second = chatRef(id, (ref) => {
      asked.push(ref);
      return ref === first;
    });
    expect(second).not.toBe(first);
    expect(asked).toEqual([first, second]);
    expect(chatRef(id, (ref) => ref === first)).toBe(second);
    const third = chatRef(id, (ref) => ref === first || ref === second);
    expect(new Set([first, second, third]).size).toBe(3);
  });
});
