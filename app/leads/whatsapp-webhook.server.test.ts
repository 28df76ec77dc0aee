import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  inboundMessages,
  validSignature,
  verifySubscription,
} from "~/leads/whatsapp-webhook.server";

const SECRET = "0123456789abcdef0123456789abcdef";
const sign = (body: string, secret = SECRET) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

describe("validSignature", () => {
  const body = '{"object":"whatsapp_business_account","entry":[]}';

  it("takes Meta's signature of the raw body, and nothing else", () => {
    expect(validSignature(Buffer.from(body), sign(body), SECRET)).toBe(true);
    expect(validSignature(Buffer.from(body), sign(body).toUpperCase(), SECRET)).toBe(false);
    expect(validSignature(Buffer.from(`${body} `), sign(body), SECRET)).toBe(false);
    expect(validSignature(Buffer.from(body), sign(body, "f".repeat(32)), SECRET)).toBe(false);
    expect(validSignature(Buffer.from(body), null, SECRET)).toBe(false);
    expect(validSignature(Buffer.from(body), "sha256=", SECRET)).toBe(false);
    expect(validSignature(Buffer.from(body), sign(body).replace("sha256=", "sha1="), SECRET)).toBe(
      false,
    );
  });

  it("takes only sha256= and 64 lower-case hex digits, however the rest would decode", () => {
    const good = sign(body);
    const hex = good.slice("sha256=".length);
    // Each decodes (Buffer.from(…, "hex") stops at the first non-hex pair) to the right digest.
    for (const header of [
      `${good}zz`,
      `${good}0`,
      `${good}00`,
      `${good} `,
      `${good}\t`,
      ` ${good}`,
      `sha256=${hex.toUpperCase()}`,
      `SHA256=${hex}`,
      `sha256=${hex},sha256=${hex}`,
      `sha256=${hex.slice(0, 63)}g${hex.slice(63)}`,
    ]) {
      expect(validSignature(Buffer.from(body), header, SECRET), JSON.stringify(header)).toBe(false);
    }
  });

  it("matches the published test vector (key 'secret', message 'test')", () => {
    expect(
      validSignature(
        Buffer.from("test"),
        "sha256=0329a06b62cd16b33eb6792be8c60b158d89a2ee3a876fce9a881ebb488c0914",
        "secret",
      ),
    ).toBe(true);
  });
});

describe("verifySubscription", () => {
  const url = (query: string) => new URL(`https://darb.example/api/whatsapp/webhook?${query}`);

  it("answers the challenge when the token is ours", async () => {
    const answer = verifySubscription(
      url("hub.mode=subscribe&hub.verify_token=tok-123456&hub.challenge=1158201444"),
      "tok-123456",
    );
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("1158201444");
  });

  it.each([
    "hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1",
    "hub.mode=unsubscribe&hub.verify_token=tok-123456&hub.challenge=1",
    "hub.verify_token=tok-123456&hub.challenge=1",
  ])("refuses %s with 403", (query) => {
    expect(verifySubscription(url(query), "tok-123456").status).toBe(403);
  });

  it("never echoes a challenge that is not a plain token", async () => {
    const answer = verifySubscription(
      url("hub.mode=subscribe&hub.verify_token=tok-123456&hub.challenge=%3Cscript%3E"),
      "tok-123456",
    );
    expect(answer.status).toBe(400);
    expect(await answer.text()).not.toContain("<script>");
  });
});

describe("inboundMessages", () => {
  const change = (value: unknown, field = "messages") => ({ field, value });
  const payload = (...changes: unknown[]) => ({
    object: "whatsapp_business_account",
    entry: [{ id: "102290129340398", changes }],
  });

  it("reads every message of every change and entry, with its text, time and ad click", () => {
    const messages = inboundMessages({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "111",
          changes: [
            change({
              messages: [
                {
                  id: "wamid.1",
                  timestamp: "1750000000",
                  type: "text",
                  text: { body: "Ref DRB-7K2QX" },
                },
                {
                  id: "wamid.2",
                  timestamp: "1750000001",
                  type: "button",
                  button: { text: "Yes" },
                  referral: { ctwa_clid: "clid-1" },
                },
              ],
            }),
          ],
        },
        {
          id: "222",
          changes: [
            change({
              messages: [
                {
                  id: "wamid.3",
                  timestamp: "1750000002",
                  type: "interactive",
                  interactive: { button_reply: { title: "Plus" } },
                },
              ],
            }),
          ],
        },
      ],
    });
    expect(messages).toEqual([
      { messageId: "wamid.1", account: "111", at: 1750000000000, text: "Ref DRB-7K2QX" },
      { messageId: "wamid.2", account: "111", at: 1750000001000, text: "Yes", ctwaClid: "clid-1" },
      { messageId: "wamid.3", account: "222", at: 1750000002000, text: "Plus" },
    ]);
  });

  it("finds no message in status callbacks, other fields, or anything else", () => {
    expect(
      inboundMessages(payload(change({ statuses: [{ id: "wamid.s", status: "read" }] }))),
    ).toEqual([]);
    expect(inboundMessages(payload(change({ messages: [{ id: "x" }] }, "account_update")))).toEqual(
      [],
    );
    for (const junk of [
      null,
      1,
      "x",
      [],
      {},
      { object: "page", entry: [] },
      payload(null),
      payload({}),
    ]) {
      expect(inboundMessages(junk)).toEqual([]);
    }
    // A message without an id cannot be told apart from a repeat: skipped.
    expect(inboundMessages(payload(change({ messages: [{ text: { body: "hi" } }] })))).toEqual([]);
  });
});
