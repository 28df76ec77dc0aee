// What the server answers to HTTP that is odd or broken before any route sees it: an
// absolute-form request line, escaped control characters and broken escapes in the path, and
// requests Node's parser cannot read. Never a 500, never without the security headers, and at
// most one line in the log per bad request, never a stack.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SocketAnswer, sendBytes } from "../support/raw-http";
import { startBuiltServer } from "../support/server";
import { IPHONE_SAFARI_MINIMAL } from "../support/user-agents";

let site: Awaited<ReturnType<typeof startBuiltServer>>;

beforeAll(async () => {
  site = await startBuiltServer({ SITE_URL: "https://darb.example" });
});
afterAll(async () => {
  await site?.close();
});

type Raw = SocketAnswer;

/** Sends bytes on a fresh connection and reads the answer until the server closes it. */
const send = (bytes: string): Promise<Raw> => sendBytes(site.origin, bytes);

const get = (target: string, host = "darb.example") =>
  send(
    `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: ${IPHONE_SAFARI_MINIMAL}\r\nConnection: close\r\n\r\n`,
  );

const hardened = (head: string) =>
  head.includes("content-security-policy:") && head.includes("x-frame-options: deny");

/** The log lines written while `run` ran. */
async function logged(run: () => Promise<unknown>): Promise<string[]> {
  const before = site.lines.length;
  await run();
  await new Promise((resolve) => setTimeout(resolve, 50));
  return site.lines.slice(before);
}

describe("an absolute-form request line", () => {
  it("is answered as the same request in the usual form, on this site", async () => {
    const usual = await get("/share?platform=whatsapp");
    const absolute = await get("http://evil.example/share?platform=whatsapp");
    expect(absolute.status).toBe(200);
    expect(hardened(absolute.head)).toBe(true);
    const title = (raw: Raw) => /<title>([^<]*)<\/title>/.exec(raw.body)?.[1];
    expect(title(absolute)).toBe(title(usual));
    // The page's links stay on our site: the request line's host is never followed.
    expect(absolute.body).not.toContain("evil.example");
  });

  it("leads the same way on the thank-you page", async () => {
    const absolute = await get("https://darb.example/thank-you?cta=demo");
    expect(absolute.status).toBe(200);
    expect(absolute.body).toContain("https://demo.darb.ae/");
  });

  it("is a 400 when the target is neither a path nor an http(s) URL", async () => {
    for (const target of ["*", "evil.example:443", "ftp://darb.example/"]) {
      const answer = await get(target);
      expect(answer.status, target).toBe(400);
      expect(hardened(answer.head), target).toBe(true);
    }
  });
});

describe("paths", () => {
  it("with an escaped control character find the not-found page, in the path's language", async () => {
    const english = await get("/x%0d");
    expect(english.status).toBe(404);
    expect(english.body).toContain("<title>Page not found");
    const arabic = await get("/ar/%0a");
    expect(arabic.status).toBe(404);
    expect(arabic.body).toContain('<html lang="ar" dir="rtl"');
    const header = await get("/ar/x%0d%0aSet-Cookie:%20a=b");
    expect(header.status).toBe(404);
    expect(header.head).not.toContain("set-cookie");
  });

  it("whose escapes do not decode are a 400, with no stack in the log", async () => {
    let answer: Raw | undefined;
    const lines = await logged(async () => {
      answer = await get("/%zz");
    });
    expect(answer?.status).toBe(400);
    expect(hardened(answer?.head ?? "")).toBe(true);
    expect(JSON.parse(answer?.body ?? "{}")).toEqual({
      error: "the path's percent-encoding is not valid",
    });
    expect(lines.filter((line) => /\bat .*:\d+/.test(line))).toEqual([]);
  });
});

describe("a request Node's parser cannot read", () => {
  it.each([
    ["a header with no colon", "GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400],
    ["a broken method", "G@T / HTTP/1.1\r\nHost: x\r\n\r\n", 400],
    [
      "headers over 16 KB",
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      431,
    ],
  ])("%s gets its status, the headers and one JSON line in the log", async (_, bytes, status) => {
    let answer: Raw | undefined;
    const lines = await logged(async () => {
      answer = await send(bytes);
    });
    expect(answer?.status).toBe(status);
    expect(hardened(answer?.head ?? "")).toBe(true);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ type: "bad_request" });
  });

  it("never writes into the middle of another answer on the same connection", async () => {
    // A good request, then garbage on the same connection. Node's parser reads both at once;
    // what goes back is whole answers, one after the other, never one inside another.
    const url = new URL(site.origin);
    const text = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname);
      let received = "";
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => {
        received += chunk;
      });
      socket.on("close", () => resolve(received));
      socket.on("error", () => undefined);
      socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
      // The garbage once the first answer is on its way.
      socket.once("data", () => socket.write("G@RBAGE / HTTP/1.1\r\nHost: x\r\n\r\n"));
    });
    const answers = text.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(answers.map((answer) => answer.slice(0, 12))).toEqual(["HTTP/1.1 200", "HTTP/1.1 400"]);
    // The first whole, to its last chunk.
    expect(answers[0]).toMatch(/\r\n\r\nf\r\n\{"status":"ok"\}\r\n0\r\n\r\n$/);
  });
});

describe("what Node would answer itself", () => {
  it.each([
    ["an HTTP/1.1 request without Host", "GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 400],
    [
      "an Expect other than 100-continue",
      "GET / HTTP/1.1\r\nHost: darb.example\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n",
      417,
    ],
  ])("%s gets its status with the security headers", async (_, bytes, status) => {
    const answer = await send(bytes);
    expect(answer.status).toBe(status);
    expect(hardened(answer.head)).toBe(true);
    expect(JSON.parse(answer.body)).toHaveProperty("error");
  });

  it("an HTTP/1.0 request needs no Host, and Expect: 100-continue is still answered", async () => {
    const old = await send("GET /healthz HTTP/1.0\r\n\r\n");
    expect(old.status).toBe(200);
    const body = JSON.stringify({
      events: [{ name: "page_view", params: { page_location: "/", source: "direct" } }],
    });
    const answer = await send(
      `POST /api/events HTTP/1.1\r\nHost: darb.example\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n${body}`,
    );
    // The interim 100, then the batch's own answer, with the headers.
    expect(answer.head).toMatch(/^http\/1\.1 100 continue/);
    expect(answer.body).toMatch(/^HTTP\/1\.1 204 /);
    expect(hardened(answer.body.toLowerCase())).toBe(true);
  });
});

/** A chunked body put back together. */
const unchunked = (body: string) => {
  let rest = body;
  let whole = "";
  for (;;) {
    const [size = "0", ...after] = rest.split("\r\n");
    const length = Number.parseInt(size, 16);
    if (!length) return whole;
    const data = after.join("\r\n");
    whole += data.slice(0, length);
    rest = data.slice(length + 2);
  }
};

describe("a body past /api/events' 16 KB", () => {
  const chunked = (size: number) => {
    const body = `{"events":[${'"x",'.repeat(size / 4)}]}`.slice(0, size);
    // In pieces of 1 KB, as a browser's stream would send them.
    const pieces = body.match(/[\s\S]{1,1024}/g) ?? [];
    return `${pieces.map((piece) => `${piece.length.toString(16)}\r\n${piece}\r\n`).join("")}0\r\n\r\n`;
  };
  const post = (framing: string, body: string) =>
    send(
      `POST /api/events HTTP/1.1\r\nHost: darb.example\r\nUser-Agent: ${IPHONE_SAFARI_MINIMAL}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/json\r\n${framing}Connection: close\r\n\r\n${body}`,
    );

  it.each([17_051, 60_000, 1_000_000])(
    "sent chunked, %i bytes get the documented 400, with the headers",
    async (size) => {
      const answer = await post("Transfer-Encoding: chunked\r\n", chunked(size));
      expect(answer.status).toBe(400);
      expect(hardened(answer.head)).toBe(true);
      expect(JSON.parse(unchunked(answer.body))).toEqual({
        error: "body is larger than 16384 bytes",
      });
    },
  );

  it("declared in Content-Length, it gets the same 400", async () => {
    const body = "x".repeat(17_051);
    const answer = await post(`Content-Length: ${body.length}\r\n`, body);
    expect(answer.status).toBe(400);
    expect(JSON.parse(unchunked(answer.body))).toEqual({
      error: "body is larger than 16384 bytes",
    });
  });
});
