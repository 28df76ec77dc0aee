/**
 * The browser's side of analytics: small batches posted to our own /api/events, never a
 * third-party script. Nothing here may block or break the page: every failure ends in a
 * bounded retry and then silence.
 */

import { MAX_RETRIES, retryDelay } from "~/analytics/backoff";
import { currentSessionId } from "~/analytics/session";
import {
  type ClientEventName,
  type EventParams,
  fitParams,
  LIMITS,
  MAX_ENGAGEMENT_MS,
  type ParamValue,
} from "~/shared/events";

export type QueuedEvent = { name: ClientEventName; params: EventParams };
/** An event and the GA4 session it belongs to (a batch is one session's). */
type Pending = QueuedEvent & { session?: string };

export type Transport = {
  fetch: (url: string, init: RequestInit) => Promise<{ ok: boolean; status: number }>;
  sendBeacon?: (url: string, data: Blob) => boolean;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** The visit's GA4 session id at this moment (analytics/session.ts). */
  session?: () => string | undefined;
  /** Foreground milliseconds since the previous event (createEngagementClock). */
  engagement?: () => number;
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
  const pending: Pending[] = [];
  let timer: unknown = null;
  let context: Record<string, ParamValue | undefined> = {};

  const body = (events: Pending[]) =>
    JSON.stringify({
      session_id: events[0]?.session,
      events: events.map(({ name, params }) => ({ name, params })),
    });
  const encoder = new TextEncoder();

  /** The next batch: one session's, at most 25 events, small enough for the server to accept. */
  function takeBatch(): Pending[] {
    let count = 0;
    while (
      count < Math.min(pending.length, LIMITS.eventsPerRequest) &&
      pending[count]?.session === pending[0]?.session
    )
      count += 1;
    const batch = pending.splice(0, count);
    while (batch.length > 1 && encoder.encode(body(batch)).byteLength > MAX_BODY_BYTES) {
      pending.unshift(batch.pop() as Pending);
    }
    return batch;
  }

  async function deliver(events: Pending[], attempt = 0): Promise<void> {
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
      const engagement = transport.engagement?.();
      pending.push({
        name,
        params: fitParams({ ...context, ...params, engagement_time_msec: engagement }),
        session: transport.session?.(),
      });
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

/**
 * Foreground time since the previous event, as GA4's engagement_time_msec: time with the page
 * hidden does not count. At least 1 (GA4 counts a visitor as engaged only above 0) and at most
 * the hour /api/events accepts.
 */
export function createEngagementClock(now: () => number, visible: () => boolean) {
  let counted = 0;
  // The page's clock starts at navigation: the first event's time is the time since then.
  let since: number | null = visible() ? 0 : null;
  return {
    /** Call on every visibility change. */
    update() {
      if (visible() && since === null) since = now();
      else if (!visible() && since !== null) {
        counted += now() - since;
        since = null;
      }
    },
    take(): number {
      const time = now();
      const total = counted + (since === null ? 0 : time - since);
      counted = 0;
      if (since !== null) since = time;
      return Math.min(MAX_ENGAGEMENT_MS, Math.max(1, Math.round(total)));
    },
  };
}

let instance: Analytics | null = null;

/** The page's one analytics queue, created on first use. */
function browserAnalytics(): Analytics {
  if (instance) return instance;
  const clock = createEngagementClock(
    () => performance.now(),
    () => document.visibilityState === "visible",
  );
  const created = createAnalytics({
    fetch: (url, init) => window.fetch(url, init),
    sendBeacon: navigator.sendBeacon ? (url, data) => navigator.sendBeacon(url, data) : undefined,
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    session: currentSessionId,
    engagement: clock.take,
  });
  const onHide = () => created.flushOnExit();
  window.addEventListener("pagehide", onHide);
  document.addEventListener("visibilitychange", () => {
    clock.update();
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
