// The bodies the site reads (the WhatsApp webhook's deliveries, the browser's event batches)
// against the real server: read up to their limit and no further, chunked or not, the answer
// written, and the connection ended behind a body left unread (app/platform/bounded-body.server.ts).
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildServer, startChildServer } from "../support/child-server";
import { ANDROID_CHROME } from "../support/user-agents";
import { APP_SECRET, delivery, postToWebhook, signed } from "../support/whatsapp-webhook";

const MB = 1024 * 1024;
/** MAX_WEBHOOK_BYTES. */
const WEBHOOK_LIMIT = MB;
const BIG = 50 * MB;

type Streamed = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Bytes of the body the server let the client write before it answered. */
  sent: number;
  /** Whether the connection ended once answered (false: still open when the wait ran out). */
  closed: boolean;
};

/**
 * POSTs a body of `total` bytes on a kept-alive connection, as fast as the server takes it:
 * chunked, or, with `declare`, after a Content-Length of `total` (then not a byte unless asked
 * for). Stops writing once the answer comes, and waits for the connection to end.
 */
function stream(
  origin: string,
  path: string,
  options: {
    total: number;
    headers?: Record<string, string>;
    declare?: boolean;
    body?: string;
    /** false: resolves with the answer, the connection left as it is. */
    untilClosed?: boolean;
  },
): Promise<Streamed> {
  const url = new URL(origin);
  const agent = new http.Agent({ keepAlive: true });
  const chunk = Buffer.alloc(64 * 1024, "a");
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answer: Omit<Streamed, "sent" | "closed"> | undefined;
    let answered = false;
    let finished = false;
    const finish = (closed: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      agent.destroy();
      if (!answer) reject(new Error(`${path}: no answer (sent ${sent} bytes)`));
      else resolve({ ...answer, sent, closed });
    };
    // Long enough for a busy machine; a connection left waiting for its body stays for minutes.
    const timer = setTimeout(() => finish(false), 20_000);
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          ...(options.declare ? { "content-length": String(options.total) } : {}),
          ...options.headers,
        },
      },
      (response) => {
        answered = true;
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (text: string) => {
          body += text;
        });
        response.on("end", () => {
          answer = { status: response.statusCode ?? 0, headers: response.headers, body };
          if (options.untilClosed === false) finish(false);
        });
      },
    );
    request.on("socket", (socket) => socket.once("close", () => finish(true)));
    // The server closing while the client still writes: what comes after the answer is moot.
    request.on("error", () => undefined);
    if (options.body !== undefined) {
      request.end(options.body);
      return;
    }
    if (options.declare) {
      // Headers only: the server must answer without the body.
      request.flushHeaders();
      return;
    }
    const pump = () => {
      while (sent < options.total && !answered && !request.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, options.total - sent));
        sent += piece.length;
        if (!request.write(piece)) {
          request.once("drain", pump);
          return;
        }
      }
      if (sent >= options.total) request.end();
    };
    pump();
  });
}

let server: ChildServer;

beforeAll(async () => {
  server = await startChildServer({
    WHATSAPP_VERIFY_TOKEN: "verify-token-for-tests",
    WHATSAPP_APP_SECRET: APP_SECRET,
  });
  // Warm: the routes have run once before memory is measured.
  const warm = delivery("wamid.warm", "hello");
  expect((await postToWebhook(server.origin, warm, signed(warm))).status).toBe(200);
});
afterAll(async () => {
  await server?.kill();
});

const sameOrigin = {
  "sec-fetch-site": "same-origin",
  "user-agent": ANDROID_CHROME,
  "x-forwarded-for": "192.0.2.40",
};

/** How many deliveries the server has logged chats for. */
const chatsLogged = () => server.lines.filter((line) => line.type === "whatsapp_chats").length;

/** Resolves once the server has logged chats for more than `count` deliveries. */
const chatLoggedAfter = (count: number) =>
  server.waitForLine(() => chatsLogged() > count).then(() => undefined);

describe("a body past its limit", () => {
  it.each([
    ["the webhook, unsigned", "/api/whatsapp/webhook", {}, 413],
    ["the event intake", "/api/events", sameOrigin, 400],
  ])(
    "to %s is refused once the limit is read, the rest left unread",
    async (_, path, headers, status) => {
      const before = server.rssMb();
      const answer = await stream(server.origin, path, { total: BIG, headers, untilClosed: false });
      const grown = server.rssMb() - before;
      console.log(
        `${path}: 50 MB chunked: ${answer.status} after ${answer.sent} bytes sent; RSS +${grown.toFixed(1)} MB`,
      );
      expect(answer.status).toBe(status);
      // The server stopped reading: the client could not hand it the whole body.
      expect(answer.sent).toBeLessThan(BIG);
      expect(grown).toBeLessThan(20);
    },
  );

  it("declared over the webhook's limit is refused with 413 before a byte of it is sent", async () => {
    const answer = await stream(server.origin, "/api/whatsapp/webhook", {
      total: 2 * MB,
      declare: true,
      untilClosed: false,
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toBe("delivery too large");
  });

  it("leaves no connection waiting for the rest: each is answered, then ends", {
    timeout: 30_000,
  }, async () => {
    // Side by side: Node ends each once it has sat idle for its keep-alive timeout (5 s and one).
    const answers = await Promise.all([
      stream(server.origin, "/api/whatsapp/webhook", { total: BIG }),
      stream(server.origin, "/api/whatsapp/webhook", { total: 2 * MB, declare: true }),
      stream(server.origin, "/api/events", { total: BIG, headers: sameOrigin }),
      // Refused before its body is looked at.
      stream(server.origin, "/api/events", {
        total: BIG,
        headers: { "sec-fetch-site": "cross-site" },
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([413, 413, 400, 403]);
    expect(answers.map((answer) => answer.closed)).toEqual([true, true, true, true]);
    expect(server.alive()).toBe(true);
  });

  it("is refused at the limit exactly, not a byte before it", async () => {
    const fits = paddedDelivery("wamid.limit", WEBHOOK_LIMIT);
    const over = paddedDelivery("wamid.over", WEBHOOK_LIMIT + 1);
    expect(Buffer.byteLength(fits)).toBe(WEBHOOK_LIMIT);
    const logged = chatsLogged();
    expect((await postToWebhook(server.origin, fits, signed(fits))).status).toBe(200);
    await chatLoggedAfter(logged);
    expect((await postToWebhook(server.origin, over, signed(over))).status).toBe(413);
  });
});

/** A signed delivery of one message, padded to `bytes` with a field the webhook does not read. */
function paddedDelivery(messageId: string, bytes: number): string {
  const bare = delivery(messageId, "hello, the app please");
  const padding = bytes - Buffer.byteLength(bare) - `,"padding":""`.length;
  return `${bare.slice(0, -1)},"padding":"${"x".repeat(padding)}"}`;
}

describe("a body within its limit", () => {
  it("a signed delivery of 1 MB less a little is recorded, sent chunked or with its length", async () => {
    for (const [messageId, chunked] of [
      ["wamid.big.chunked", true],
      ["wamid.big.length", false],
    ] as const) {
      const body = paddedDelivery(messageId, WEBHOOK_LIMIT - 200);
      const logged = chatsLogged();
      const answer = chunked
        ? await stream(server.origin, "/api/whatsapp/webhook", {
            total: Buffer.byteLength(body),
            body,
            headers: { "x-hub-signature-256": signed(body), "transfer-encoding": "chunked" },
            untilClosed: false,
          })
        : await postToWebhook(server.origin, body, signed(body));
      expect(answer.status).toBe(200);
      await chatLoggedAfter(logged);
      expect(server.lines.findLast((line) => line.type === "whatsapp_chats")).toMatchObject({
        seen: 1,
        unmatched: 1,
      });
    }
  });
});
