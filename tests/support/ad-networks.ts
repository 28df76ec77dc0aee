// Loopback stand-ins for TikTok's Events API, Snap's Conversions API and Google's Data Manager
// API (with Google's OAuth token endpoint), one server per network, keeping every request they
// took with its headers. Each can be up or down (refusing connections), and answers as its
// network does.
import type http from "node:http";
import { startLoopbackServer } from "./loopback-server";

export type Taken = { path: string; headers: http.IncomingHttpHeaders; body: string };

export type StandIn = {
  /** The base URL the site's *_ENDPOINT setting takes. */
  base: string;
  /** Requests it answered, in order of arrival. */
  taken: Taken[];
  /** Bodies of the requests to this path, parsed as JSON. */
  bodies: <T = Record<string, unknown>>(path: string) => T[];
  setUp: (up: boolean) => Promise<void>;
  close: () => Promise<void>;
};

async function standIn(
  answer: (request: Taken) => { status: number; body: string; type?: string },
): Promise<StandIn> {
  const taken: Taken[] = [];
  const server = await startLoopbackServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const seen = {
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      };
      taken.push(seen);
      const { status, body, type = "application/json" } = answer(seen);
      response.writeHead(status, { "content-type": type }).end(body);
    });
  });
  return {
    base: server.origin,
    taken,
    bodies: <T>(path: string) =>
      taken
        .filter((request) => request.path === path)
        .map((request) => JSON.parse(request.body) as T),
    setUp: (up) => (up ? server.start() : server.stop()),
    close: server.stop,
  };
}

export type TiktokEvent = {
  event: string;
  event_time: number;
  event_id: string;
  user: Record<string, string>;
  page: { url: string };
};
export type SnapEvent = {
  event_name: string;
  event_time: number;
  event_id: string;
  action_source: string;
  event_source_url: string;
  user_data: Record<string, string>;
};
/** One event of an `events:ingest` request, with the conversion action its destination named. */
export type IngestedEvent = {
  action: string;
  operatingAccount: { accountType: string; accountId: string };
  transactionId: string;
  eventTimestamp: string;
  eventSource: string;
  adIdentifiers: Record<string, unknown>;
  userData?: { userIdentifiers: Array<{ phoneNumber?: string }> };
  conversionValue: number;
  currency: string;
};

export type IngestRequest = {
  destinations: Array<{
    operatingAccount: { accountType: string; accountId: string };
    loginAccount?: { accountType: string; accountId: string };
    productDestinationId: string;
  }>;
  encoding?: string;
  events: Array<Omit<IngestedEvent, "action" | "operatingAccount">>;
};

export const TIKTOK_PATH = "/open_api/v1.3/event/track/";
export const GOOGLE_TOKEN_PATH = "/token";

export type AdNetworks = {
  tiktok: StandIn;
  snap: StandIn;
  google: StandIn;
  /** The settings that point the site at these stand-ins, every network on. */
  env: (overrides?: Record<string, string>) => Record<string, string>;
  /** What each network took, as events. */
  tiktokEvents: () => TiktokEvent[];
  snapEvents: () => SnapEvent[];
  /** Every event Google's Data Manager stand-in took, with the request's destination. */
  conversions: () => IngestedEvent[];
  /** The requests themselves, as sent. */
  ingests: () => IngestRequest[];
  /** Token requests Google's stand-in answered, and the tokens it gave out. */
  tokenRequests: () => Taken[];
  tokens: string[];
  reset: () => void;
  setUp: (up: boolean) => Promise<void>;
  close: () => Promise<void>;
};

export const SNAP_PIXEL = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
export const GOOGLE_CUSTOMER = "1234567890";

export async function startAdNetworks(): Promise<AdNetworks> {
  const tiktok = await standIn(() => ({
    status: 200,
    body: '{"code":0,"message":"OK","data":{}}',
  }));
  const snap = await standIn(() => ({ status: 200, body: '{"status":"SUCCESS"}' }));
  const tokens: string[] = [];
  const google = await standIn((request) => {
    if (request.path === GOOGLE_TOKEN_PATH) {
      const token = `ya29.stand-in-${tokens.length + 1}`;
      tokens.push(token);
      return {
        status: 200,
        body: JSON.stringify({ access_token: token, expires_in: 3599, token_type: "Bearer" }),
      };
    }
    // Google refuses a token it did not give out.
    if (!tokens.some((token) => request.headers.authorization === `Bearer ${token}`)) {
      return { status: 401, body: '{"error":{"code":401,"status":"UNAUTHENTICATED"}}' };
    }
    // The Data Manager API takes the request and says its id; per-event outcomes come later.
    return { status: 200, body: `{"requestId":"stand-in-${request.path.length}"}` };
  });
  const ingestPath = "/v1/events:ingest";
  const ingests = () =>
    google.taken
      .filter(
        (request) =>
          request.path === ingestPath && /^Bearer ya29/.test(request.headers.authorization ?? ""),
      )
      .map((request) => JSON.parse(request.body) as IngestRequest);
  const all = [tiktok, snap, google];
  return {
    tiktok,
    snap,
    google,
    env: (overrides = {}) => ({
      TIKTOK_PIXEL_CODE: "C4STANDIN0123456789",
      TIKTOK_ACCESS_TOKEN: "tiktok_TOPSECRET_token_0123",
      TIKTOK_ENDPOINT: `${tiktok.base}/open_api/v1.3`,
      SNAP_PIXEL_ID: SNAP_PIXEL,
      SNAP_ACCESS_TOKEN: "snap_TOPSECRET_token_0123",
      SNAP_ENDPOINT: `${snap.base}/v3`,
      GOOGLE_ADS_CUSTOMER_ID: "123-456-7890",
      GOOGLE_ADS_CONVERSION_ACTION: "555",
      GOOGLE_ADS_CLIENT_ID: "1234-standin.apps.googleusercontent.com",
      GOOGLE_ADS_CLIENT_SECRET: "GOCSPX-TOPSECRET",
      GOOGLE_ADS_REFRESH_TOKEN: "1//TOPSECRET-refresh",
      GOOGLE_DATA_MANAGER_ENDPOINT: `${google.base}/v1`,
      GOOGLE_OAUTH_ENDPOINT: `${google.base}${GOOGLE_TOKEN_PATH}`,
      ...overrides,
    }),
    tiktokEvents: () => tiktok.bodies<{ data: TiktokEvent[] }>(TIKTOK_PATH).flatMap((b) => b.data),
    snapEvents: () =>
      snap.bodies<{ data: SnapEvent[] }>(`/v3/${SNAP_PIXEL}/events`).flatMap((b) => b.data),
    ingests,
    conversions: () =>
      ingests().flatMap((request) =>
        request.events.map((event) => ({
          action: request.destinations[0]?.productDestinationId ?? "",
          operatingAccount: request.destinations[0]?.operatingAccount ?? {
            accountType: "",
            accountId: "",
          },
          ...event,
        })),
      ),
    tokenRequests: () => google.taken.filter((request) => request.path === GOOGLE_TOKEN_PATH),
    tokens,
    reset() {
      for (const network of all) network.taken.length = 0;
    },
    async setUp(up) {
      for (const network of all) await network.setUp(up);
    },
    async close() {
      for (const network of all) await network.close();
    },
  };
}
