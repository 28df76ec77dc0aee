/**
 * The visit's GA4 session, kept in sessionStorage (this tab only, no cookie): its id is the
 * second it began, as gtag.js makes them, and it ends after 30 minutes without an event, as GA4's
 * do. Every event carries the id, and so does every lead link (`sid`), so the lead that
 * /thank-you records on the server joins the session the landing page began
 * (docs/analytics.md).
 */

import { SESSION_ID } from "~/shared/events";

const KEY = "darb:session";
export const SESSION_TIMEOUT_MS = 30 * 60_000;

export type SessionState = {
  id: string;
  /** When the last event was tracked (ms since the epoch). */
  last: number;
  /** The campaign query the session's campaign_details was sent for, if one was. */
  details?: string;
};

type Store = Pick<Storage, "getItem" | "setItem">;

/** Where the state lives when sessionStorage is blocked: this page, for as long as it lives. */
let memory: SessionState | null = null;

function read(store: Store | null): SessionState | null {
  const stored = readStored(store);
  // A store that stopped taking writes (full) holds an older state than this page's.
  return memory && (!stored || memory.last > stored.last) ? memory : stored;
}

/** The stored session, if the store holds a well-formed one. */
function readStored(store: Store | null): SessionState | null {
  try {
    const value = JSON.parse(store?.getItem(KEY) ?? "null") as Partial<SessionState> | null;
    if (!value || typeof value.id !== "string" || !SESSION_ID.test(value.id)) return null;
    if (typeof value.last !== "number" || !Number.isFinite(value.last)) return null;
    return {
      id: value.id,
      last: value.last,
      ...(typeof value.details === "string" ? { details: value.details } : {}),
    };
  } catch {
    return null;
  }
}

function write(store: Store | null, state: SessionState): void {
  memory = state;
  try {
    store?.setItem(KEY, JSON.stringify(state));
  } catch {
    // Storage full or blocked: memory holds it for this page.
  }
}

function storage(): Store | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The session at `now`: the stored one while it is active, else a new one; either way its last
 * activity becomes `now`.
 */
export function touchSession(store: Store | null, now: number): SessionState {
  const stored = read(store);
  const state: SessionState =
    stored && now - stored.last < SESSION_TIMEOUT_MS && now >= stored.last
      ? { ...stored, last: now }
      : { id: String(Math.floor(now / 1000)), last: now };
  write(store, state);
  return state;
}

/** Notes that this session's campaign_details was sent for `query`. */
export function noteCampaignSent(store: Store | null, query: string): void {
  const state = read(store);
  if (state) write(store, { ...state, details: query });
}

/** The session id for an event tracked now (analytics.client.ts). */
export function currentSessionId(): string {
  return touchSession(storage(), Date.now()).id;
}

/** This tab's session, touched now, for the page that is being viewed. */
export function visitSession(): SessionState {
  return touchSession(storage(), Date.now());
}

export function noteVisitCampaignSent(query: string): void {
  noteCampaignSent(storage(), query);
}
