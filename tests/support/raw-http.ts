// One HTTP request through node:http, not fetch: the headers go as given (repeated lines too),
// from the local address given, on the agent given, and the answer comes back as the server sent
// it (no decompression, no redirect followed, raw header lines kept).
import http from "node:http";
import net from "node:net";
import { IPHONE_SAFARI_18 } from "./user-agents";

export type RawOptions = {
  method?: string;
  /** Sent as given; an array value is sent as that many header lines. */
  headers?: http.OutgoingHttpHeaders;
  body?: string | Buffer;
  /** The address the request leaves from (127.0.0.2 and up: another visitor on loopback). */
  localAddress?: string;
  /** `false`: a connection of its own. Unset: Node's global agent. */
  agent?: http.Agent | false;
  /** Gives up after this long without a byte (unset: no limit). */
  timeoutMs?: number;
};

export type RawAnswer<Body = string> = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header names and values as received, alternating. */
  rawHeaders: string[];
  body: Body;
  /** From sending to the answer's last byte. */
  ms: number;
};

/**
 * Sends one request to `origin` + `path` and resolves with the answer, its body as bytes.
 *
 * Once the answer has begun, it alone decides: an error on the request after that (a server that
 * answers 413 and closes before reading the whole body) does not reject; an answer cut short does.
 * An error on a kept-alive socket the server had closed comes with `reusedSocket: true`, so a
 * caller may send again.
 */
export function rawBytes(
  origin: string,
  path: string,
  options: RawOptions = {},
): Promise<RawAnswer<Buffer>> {
  const url = new URL(origin);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? "GET",
        headers: options.headers,
        localAddress: options.localAddress,
        agent: options.agent,
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            rawHeaders: response.rawHeaders,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          }),
        );
        response.on("error", reject);
      },
    );
    if (options.timeoutMs !== undefined) {
      const ms = options.timeoutMs;
      request.setTimeout(ms, () =>
        request.destroy(new Error(`${path}: no answer within ${ms} ms`)),
      );
    }
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (answered) return;
      const stale = request.reusedSocket && error.code === "ECONNRESET";
      reject(stale ? Object.assign(error, { reusedSocket: true }) : error);
    });
    request.end(options.body);
  });
}

/** `rawBytes`, its body read as UTF-8. */
export async function rawRequest(
  origin: string,
  path: string,
  options: RawOptions = {},
): Promise<RawAnswer> {
  const answer = await rawBytes(origin, path, options);
  return { ...answer, body: answer.body.toString("utf8") };
}

export type SocketAnswer = { status: number; head: string; body: string };

/**
 * Writes `bytes` (latin1, as given: what node:http would refuse to send) on a fresh connection
 * and reads until the server closes it: the first status line's code (0 for none), the first
 * head in lower case, and the rest as it came.
 */
export function sendBytes(origin: string, bytes: string, timeoutMs = 5000): Promise<SocketAnswer> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("close", () => {
      const [head = "", ...rest] = text.split("\r\n\r\n");
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        head: head.toLowerCase(),
        body: rest.join("\r\n\r\n"),
      });
    });
    socket.on("error", () => undefined);
    socket.setTimeout(timeoutMs, () => socket.destroy());
    socket.write(bytes, "latin1");
  });
}

/** A phone's own navigation to `path` from `localAddress`: how a visitor opens a page. */
export function phoneNavigation(
  origin: string,
  path: string,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return rawRequest(origin, path, {
    localAddress,
    agent: false,
    headers: { "user-agent": IPHONE_SAFARI_18, "sec-fetch-dest": "document", ...headers },
  });
}
