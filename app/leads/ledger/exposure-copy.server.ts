/**
 * With replicas (REDIS_URL), each one's experiment exposure counts reach Redis for the report
 * (shared-ledger.server.ts): every EXPOSURE_COPY_EVERY_MS, the totals that changed since the
 * last copy go as one call through the ledger's outbox for "redis", like a lead's copy, so an
 * outage delays them and loses nothing. A batch, never a call per exposure (exposures come with
 * page views); at most one owed at a time, so a long outage piles up no copies. After a restart
 * every total is copied once more: Redis keeps the larger, so that counts nothing twice.
 */
import type { ExposureCount, Ledger, NewCall } from "~/leads/ledger/ledger.server";
import { SHARED_URL, sharedExposureCall } from "~/leads/ledger/shared-ledger.server";

export const EXPOSURE_COPY_EVERY_MS = 10_000;

export type ExposureCopy = {
  /** Records a copy of what changed now, if none is owed already (shutdown's last one too). */
  copy: () => void;
  stop: () => void;
};

const keyOf = (e: ExposureCount) => `${e.day}\n${e.experiment}\n${e.variant}`;

export function startExposureCopy(options: {
  ledger: Ledger;
  /** Writes the call to the ledger and hands it to the outbox (the sink's recordCalls). */
  record: (calls: NewCall[]) => void;
  everyMs?: number;
  now?: () => number;
}): ExposureCopy {
  const { ledger } = options;
  const now = options.now ?? Date.now;
  /** The totals in the last copy recorded. */
  let copied = new Map<string, number>();

  function copy() {
    const totals = ledger.exposures();
    const changed = totals.filter((total) => copied.get(keyOf(total)) !== total.count);
    if (changed.length === 0) return;
    for (const call of ledger.pendingOf("redis")) if (call.url === SHARED_URL.exposures) return;
    options.record([sharedExposureCall(ledger.replicaId(), changed, now())]);
    copied = new Map(totals.map((total) => [keyOf(total), total.count]));
  }

  const timer = setInterval(copy, options.everyMs ?? EXPOSURE_COPY_EVERY_MS);
  timer.unref();
  return { copy, stop: () => clearInterval(timer) };
}
