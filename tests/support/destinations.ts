// Stand-ins for GA4's Measurement Protocol and Meta's Conversions API on one loopback server,
// keeping every body they were sent, for the lead ledger's tests. Each can be up, refusing
// connections, answering 500, resetting the connection once it has read the request, or (Meta)
// refusing the site's expired token as the Graph API does: a 400 with OAuthException 190.
import { startLoopbackServer } from "./loopback-server";

export type DestinationMode = "ok" | "refused" | "fail" | "reset" | "expired-token";

/** The Graph API's answer to an expired token, as Meta documents it. */
export const EXPIRED_TOKEN_ANSWER = JSON.stringify({
  error: {
    message: "Error validating access token: Session has expired on Friday, 27-Nov-26.",
    type: "OAuthException",
    code: 190,
    error_subcode: 463,
    fbtrace_id: "AbCdEfGh123",
  },
});

export type GaHit = {
  client_id: string;
  timestamp_micros?: number;
  /** Whose the events are: the visitor's address, and their device or user agent. */
  ip_override?: string;
  device?: Record<string, string>;
  user_agent?: string;
  events: { name: string; params: Record<string, unknown> }[];
};

export type MetaEvent = {
  event_name: string;
  event_time: number;
  event_id: string;
  action_source: string;
  messaging_channel?: string;
  user_data: Record<string, string>;
  custom_data?: Record<string, unknown>;
};

export type Destinations = {
  gaEndpoint: string;
  metaEndpoint: string;
  /** Bodies that were answered 204/200, in order of arrival. */
  ga: GaHit[];
  meta: MetaEvent[];
  /** Requests that arrived, whatever the answer. */
  requests: () => number;
  setMode: (mode: DestinationMode) => Promise<void>;
  close: () => Promise<void>;
};

export async function startDestinations(): Promise<Destinations> {
  let mode: DestinationMode = "ok";
  let requests = 0;
  const ga: GaHit[] = [];
  const meta: MetaEvent[] = [];
  const server = await startLoopbackServer((request, response) => {
    requests += 1;
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (mode === "reset") {
        request.socket.resetAndDestroy();
        return;
      }
      if (mode === "fail") {
        response.writeHead(500).end("fail");
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
      if (mode === "expired-token" && !request.url?.startsWith("/mp/collect")) {
        response.writeHead(400, { "content-type": "application/json" }).end(EXPIRED_TOKEN_ANSWER);
        return;
      }
      if (request.url?.startsWith("/mp/collect")) {
        ga.push(body as GaHit);
        response.writeHead(204).end();
      } else {
        meta.push(...((body as { data: MetaEvent[] }).data ?? []));
        response
          .writeHead(200, { "content-type": "application/json" })
          .end('{"events_received":1}');
      }
    });
  });
  return {
    gaEndpoint: `${server.origin}/mp/collect`,
    metaEndpoint: `${server.origin}/v23.0`,
    ga,
    meta,
    requests: () => requests,
    async setMode(next) {
      mode = next;
      await (next === "refused" ? server.stop() : server.start());
    },
    close: server.stop,
  };
}

/** Every GA4 event of that name, with the hit's client id and time. */
export function gaEvents(hits: GaHit[], name: string) {
  return hits.flatMap((hit) =>
    hit.events
      .filter((event) => event.name === name)
      .map((event) => ({
        ...event,
        client_id: hit.client_id,
        timestamp_micros: hit.timestamp_micros,
      })),
  );
}
