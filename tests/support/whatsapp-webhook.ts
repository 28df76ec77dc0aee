// What Meta posts to the WhatsApp webhook when a message arrives, signed as Meta signs it, for the
// tests that start a lead's chat: a delivery with one text message (and a status update beside
// it, as real deliveries often carry), and its X-Hub-Signature-256.
import { createHmac } from "node:crypto";

/** An app secret of the form Meta gives (32 hexadecimal digits). */
export const APP_SECRET = "0123456789abcdef0123456789abcdef";

/** A delivery of one text message `text` with WhatsApp's id `messageId`. */
export function delivery(messageId: string, text: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: "971585550134",
                phone_number_id: "106540352242922",
              },
              contacts: [{ profile: { name: "A driver" }, wa_id: "971500000001" }],
              messages: [
                {
                  from: "971500000001",
                  id: messageId,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: "text",
                  text: { body: text },
                  ...extra,
                },
              ],
            },
          },
        ],
      },
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              statuses: [{ id: "wamid.status", status: "delivered", timestamp: "1750857384" }],
            },
          },
        ],
      },
    ],
  });
}

/** The X-Hub-Signature-256 header Meta sends with `body`. */
export function signed(body: string, secret = APP_SECRET) {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** Posts `body` to the server's webhook, signed with `signature` (none: unsigned). */
export const postToWebhook = (origin: string, body: string, signature?: string) =>
  fetch(`${origin}/api/whatsapp/webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(signature ? { "x-hub-signature-256": signature } : {}),
    },
    body,
  });
