/**
 * The browser's side of analytics: small batches posted to our own /api/events, never a
 * third-party script. Nothing here may block or break the page: every failure ends in a
 * bounded retry and then silence.
 */
import {
  type ClientEventName,
  type EventParams,
  fitParams,
  LIMITS,
  type ParamValue,
} from "~/shared/analytics-events";
import { MAX_RETRIES, retryDelay } from "~/shared/backoff";

export type QueuedEvent = { name: ClientEventName; params: EventParams };

export type Transport = {
  fetch: (url: string, init: RequestInit) => Promise<{ ok: boolean; status: number }>;
  sendBeacon?: (url: string, data: Blob) => boolean;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

export type Analytics = {
  /** `urgent` sends at once, for clicks that leave the page. */
  track: (
    name: ClientEventName,
    params?: Record<string, ParamValue | undefined>,
    urgent?: boolean,
  ) => void;
  /** Hands what is left to the browser to deliver after the page is gone. */
  flushOnExit: () => void;
  setContext: (context: Record<string, ParamValue | undefined>) => void;
};

export const ENDPOINT = "/api/events";
const BATCH_DELAY_MS = 1000;
// Under the server's 16 KB body limit with room to spare: a refused batch is a lost batch.
const MAX_BODY_BYTES = LIMITS.bodyBytes - 1024;

export function createAnalytics(transport: Transport, endpoint = ENDPOINT): Analytics {
  const pending: QueuedEvent[] = [];
  let timer: unknown = null;
  let context: Record<string, ParamValue | undefined> = {};

  const body = (events: QueuedEvent[]) => JSON.stringify({ events });
  const encoder = new TextEncoder();

  /** The next batch: at most 25 events, and small enough for the server to accept. */
  function takeBatch(): QueuedEvent[] {
    const batch = pending.splice(0, LIMITS.eventsPerRequest);
    while (batch.length > 1 && encoder.encode(body(batch)).byteLength > MAX_BODY_BYTES) {
      pending.unshift(batch.pop() as QueuedEvent);
    }
    return batch;
  }

  async function deliver(events: QueuedEvent[], attempt = 0): Promise<void> {
    let retry: boolean;
    try {
      const response = await transport.fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: body(events),
        keepalive: true,
        credentials: "same-origin",
      });
      // 4xx other than 429 means the batch itself is wrong: sending it again would not help.
      retry = !response.ok && (response.status >= 500 || response.status === 429);
    } catch {
      retry = true;
    }
    if (retry && attempt < MAX_RETRIES) {
      transport.setTimeout(() => void deliver(events, attempt + 1), retryDelay(attempt + 1));
    }
  }

  function flush() {
    if (timer !== null) transport.clearTimeout(timer);
    timer = null;
    while (pending.length > 0) {
      void deliver(takeBatch());
    }
  }

  return {
    track(name, params = {}, urgent = false) {
      pending.push({ name, params: fitParams({ ...context, ...params }) });
      if (urgent || pending.length >= LIMITS.eventsPerRequest) flush();
      else if (timer === null) timer = transport.setTimeout(flush, BATCH_DELAY_MS);
    },
    flushOnExit() {
      if (timer !== null) transport.clearTimeout(timer);
      timer = null;
      while (pending.length > 0) {
        const events = takeBatch();
        const blob = new Blob([body(events)], { type: "application/json" });
        if (!transport.sendBeacon?.(endpoint, blob)) void deliver(events, MAX_RETRIES);
      }
    },
    setContext(next) {
      context = next;
    },
  };
}

let instance: Analytics | null = null;

/** The page's one analytics queue, created on first use. */
function browserAnalytics(): Analytics {
  if (instance) return instance;
  const created = createAnalytics({
    fetch: (url, init) => window.fetch(url, init),
    sendBeacon: navigator.sendBeacon ? (url, data) => navigator.sendBeacon(url, data) : undefined,
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
  });
  const onHide = () => created.flushOnExit();
  window.addEventListener("pagehide", onHide);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") onHide();
  });
  instance = created;
  return created;
}

export function track(
  name: ClientEventName,
  params?: Record<string, ParamValue | undefined>,
  urgent = false,
): void {
  browserAnalytics().track(name, params, urgent);
}

export function setAnalyticsContext(context: Record<string, ParamValue | undefined>): void {
  browserAnalytics().setContext(context);
}
