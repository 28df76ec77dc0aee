/**
 * What the app's own server (server/http-app.ts) hands every loader, action and document render
 * through Remix's load context: who is asking, the response's nonce, the process's settings and
 * services, and whether the rendered document may be kept for the next visitors. Loaders read
 * the settings from here, never from the environment.
 */
import type { Config } from "~/platform/config.server";
import type { Attribution } from "~/shared/attribution";
import type { Assignment } from "~/shared/experiment";

/**
 * What lives as long as the process, built once by the server at start and handed to every
 * request. Its fields are declared where it is built (server/services.ts, the composition root),
 * which alone knows every feature.
 */
// biome-ignore lint/suspicious/noEmptyInterface: server/services.ts declares the fields.
export interface Services {}

export type DocumentKeeper = {
  /** What to render where the nonce goes: each response fills in its own. */
  slot: string;
  /** When the request arrived: what the page says of the date is as of then or later. */
  since: number;
  /**
   * Keeps the rendered document (with `slot` for its nonces) and its headers, to be served
   * while fresh and not from `until` on (ms; document/kept-until.server.ts).
   */
  keep: (html: string, headers: Headers, until?: number) => void;
};

export type RequestContext = {
  /** The visitor's address: the connection's, or a trusted proxy's X-Forwarded-For entry. */
  clientAddress: string;
  /** This response's CSP nonce; the server puts the same one in the header. */
  nonce: string;
  /** The settings the process started with (server/main.ts checked them). */
  config: Config;
  services: Services;
  /**
   * The variant of the running experiment this landing page shows (server/experiments.ts);
   * null or absent: the control, the page as it is.
   */
  assignment?: Assignment | null;
  /**
   * What the visitor's browser keeps between visits, as this request left it (server/attribution.ts):
   * the last tagged visit's campaign and Meta's browser id; null for what is no visitor's page.
   */
  attribution?: Attribution | null;
  /** Set when the server may answer the next requests alike with this document. */
  documentKeeper: DocumentKeeper | null;
  /**
   * A data request (`?_data=`: a page's data for a navigation in the browser), which Remix hides
   * from the loaders by taking `_data` off the URL they see. Never a visitor's own navigation.
   */
  dataRequest?: boolean;
};

declare module "@remix-run/node" {
  interface AppLoadContext extends Partial<RequestContext> {}
}

/**
 * The request's context, as the app's server gives it (server/http-app.ts). Served by anything
 * else, such as remix-serve, the app has neither its settings nor its services, so it says so
 * rather than count leads nowhere.
 */
export function requestContext(context: Partial<RequestContext> | undefined): RequestContext {
  if (context?.services && context.config && context.clientAddress && context.nonce) {
    return { documentKeeper: null, ...context } as RequestContext;
  }
  throw new Error(
    "no request context: the app is served by its own server (npm start, npm run dev), which gives each request its settings and services",
  );
}
