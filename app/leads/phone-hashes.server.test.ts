import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { phoneHashes } from "~/leads/phone-hashes.server";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("phoneHashes", () => {
  // A UAE mobile as the WhatsApp webhook writes it: country code and digits, no "+".
  const WA_ID = "971501234567";

  it("hashes a WhatsApp number as E.164 with its + (Google, TikTok) and as bare digits (Meta, Snap)", () => {
    const hashes = phoneHashes(WA_ID);
    expect(hashes).toEqual({ e164: sha256("+971501234567"), digits: sha256("971501234567") });
    expect(hashes?.e164).toMatch(/^[0-9a-f]{64}$/);
    // The number itself is in neither.
    expect(JSON.stringify(hashes)).not.toContain(WA_ID);
  });

  it.each([
    ["+971501234567"],
    ["+971 50 123 4567"],
    ["00971501234567"],
    ["(971) 50-123-4567"],
    [" 971501234567 "],
  ])("reads %j as the same number", (written) => {
    expect(phoneHashes(written)).toEqual(phoneHashes(WA_ID));
  });

  it.each([
    ["0501234567", "a national number: its leading zero is no country code"],
    ["1234567", "seven digits"],
    ["1234567890123456", "sixteen digits"],
    ["97150123456x", "a letter"],
    ["", "nothing"],
    ["+", "a plus alone"],
  ])("refuses %j (%s)", (written) => {
    expect(phoneHashes(written)).toBeNull();
  });

  it("takes E.164's bounds: 8 and 15 digits", () => {
    expect(phoneHashes("12345678")).not.toBeNull();
    expect(phoneHashes("123456789012345")).not.toBeNull();
  });
});
