/**
 * The page's one toaster (docs/product.md, Constants): short confirmations that leave by themselves. A tiny
 * external store, read with useSyncExternalStore, so any handler can call toast() without a
 * context provider.
 */
export const TOAST_DURATION_MS = 5000;
export const MAX_VISIBLE_TOASTS = 3;

export type Toast = { id: number; message: string };
export type ToastOptions = {
  /** Milliseconds on screen; Infinity keeps it until dismissed. */
  duration?: number;
};

export type ToastStore = {
  toast: (message: string, options?: ToastOptions) => number;
  dismiss: (id: number) => void;
  /** Holds every timer, e.g. while the pointer or focus is on a toast, so none leaves unread. */
  pause: () => void;
  resume: () => void;
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => readonly Toast[];
  getServerSnapshot: () => readonly Toast[];
};

const NONE: readonly Toast[] = [];

export function createToastStore(): ToastStore {
  let toasts: readonly Toast[] = NONE;
  let nextId = 1;
  let paused = false;
  const listeners = new Set<() => void>();
  // Time left per toast; a running toast also has a timer and the time it started.
  const clocks = new Map<
    number,
    { left: number; timer?: ReturnType<typeof setTimeout>; since?: number }
  >();

  const emit = () => {
    for (const listener of listeners) listener();
  };

  function start(id: number) {
    const clock = clocks.get(id);
    if (!clock || !Number.isFinite(clock.left)) return;
    clock.since = Date.now();
    clock.timer = setTimeout(() => dismiss(id), clock.left);
  }

  function stop(id: number) {
    const clock = clocks.get(id);
    if (!clock || clock.since === undefined) return;
    clearTimeout(clock.timer);
    clock.left = Math.max(0, clock.left - (Date.now() - clock.since));
    clock.timer = undefined;
    clock.since = undefined;
  }

  function dismiss(id: number) {
    if (!toasts.some((toast) => toast.id === id)) return;
    stop(id);
    clocks.delete(id);
    toasts = toasts.filter((toast) => toast.id !== id);
    emit();
  }

  return {
    toast(message, { duration = TOAST_DURATION_MS } = {}) {
      const id = nextId++;
      // The newest stays; past the cap the oldest goes, even if unread.
      const cut = Math.max(0, toasts.length - (MAX_VISIBLE_TOASTS - 1));
      const kept = toasts.slice(cut);
      for (const dropped of toasts.slice(0, cut)) {
        stop(dropped.id);
        clocks.delete(dropped.id);
      }
      toasts = [...kept, { id, message }];
      clocks.set(id, { left: duration });
      if (!paused) start(id);
      emit();
      return id;
    },
    dismiss,
    pause() {
      if (paused) return;
      paused = true;
      for (const id of clocks.keys()) stop(id);
    },
    resume() {
      if (!paused) return;
      paused = false;
      for (const id of clocks.keys()) start(id);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => toasts,
    getServerSnapshot: () => NONE,
  };
}

const store = createToastStore();

/** Said on window by every toast: the toaster (components/Toaster.tsx) loads its code on the first. */
export const TOAST_EVENT = "darb:toast";

export const { dismiss, pause, resume, subscribe, getSnapshot, getServerSnapshot } = store;

/** Shows a toast in the page's toaster. */
export function toast(message: string, options?: ToastOptions): number {
  const id = store.toast(message, options);
  window.dispatchEvent(new Event(TOAST_EVENT));
  return id;
}
