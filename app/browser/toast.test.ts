import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createToastStore,
  MAX_VISIBLE_TOASTS,
  TOAST_DURATION_MS,
  type ToastStore,
} from "~/browser/toast";

let store: ToastStore;

beforeEach(() => {
  vi.useFakeTimers();
  store = createToastStore();
});

afterEach(() => {
  vi.useRealTimers();
});

const messages = () => store.getSnapshot().map((toast) => toast.message);

describe("the toast store", () => {
  it("follows docs/product.md: 5 s on screen, at most 3 at a time", () => {
    expect(TOAST_DURATION_MS).toBe(5000);
    expect(MAX_VISIBLE_TOASTS).toBe(3);
  });

  it("shows a toast and removes it after 5 s", () => {
    store.toast("Link copied");
    expect(messages()).toEqual(["Link copied"]);
    vi.advanceTimersByTime(4999);
    expect(messages()).toEqual(["Link copied"]);
    vi.advanceTimersByTime(1);
    expect(messages()).toEqual([]);
  });

  it("keeps a toast for a custom duration", () => {
    store.toast("Long", { duration: 8000 });
    store.toast("Short", { duration: 1000 });
    vi.advanceTimersByTime(1000);
    expect(messages()).toEqual(["Long"]);
    vi.advanceTimersByTime(6999);
    expect(messages()).toEqual(["Long"]);
    vi.advanceTimersByTime(1);
    expect(messages()).toEqual([]);
  });

  it("keeps an Infinity toast until it is dismissed", () => {
    const id = store.toast("Sticky", { duration: Number.POSITIVE_INFINITY });
    vi.advanceTimersByTime(60_000);
    expect(messages()).toEqual(["Sticky"]);
    store.dismiss(id);
    expect(messages()).toEqual([]);
  });

  it("shows at most three, a fourth pushing out the oldest", () => {
    for (const message of ["one", "two", "three", "four"]) store.toast(message);
    expect(messages()).toEqual(["two", "three", "four"]);
    store.toast("five");
    expect(messages()).toEqual(["three", "four", "five"]);
    // The pushed-out toasts' timers are gone too.
    expect(vi.getTimerCount()).toBe(3);
  });

  it("dismisses one toast by id and leaves the others", () => {
    const first = store.toast("one");
    store.toast("two");
    store.dismiss(first);
    expect(messages()).toEqual(["two"]);
    store.dismiss(first);
    expect(messages()).toEqual(["two"]);
    expect(vi.getTimerCount()).toBe(1);
  });

  it("gives every toast its own id", () => {
    const a = store.toast("same");
    const b = store.toast("same");
    expect(a).not.toBe(b);
    expect(store.getSnapshot().map((toast) => toast.id)).toEqual([a, b]);
  });

  it("tells subscribers about every change, until they unsubscribe", () => {
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const id = store.toast("hello");
    store.dismiss(id);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    store.toast("again");
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("returns the same snapshot until something changes", () => {
    store.toast("hello");
    expect(store.getSnapshot()).toBe(store.getSnapshot());
    expect(store.getServerSnapshot()).toEqual([]);
  });

  it("holds the clock while paused and resumes with the time that was left", () => {
    store.toast("Link copied");
    vi.advanceTimersByTime(3000);
    store.pause();
    vi.advanceTimersByTime(60_000);
    expect(messages()).toEqual(["Link copied"]);
    store.resume();
    vi.advanceTimersByTime(1999);
    expect(messages()).toEqual(["Link copied"]);
    vi.advanceTimersByTime(1);
    expect(messages()).toEqual([]);
  });

  it("starts a toast that arrives while paused only on resume", () => {
    store.pause();
    store.toast("Later");
    vi.advanceTimersByTime(10_000);
    expect(messages()).toEqual(["Later"]);
    store.resume();
    vi.advanceTimersByTime(TOAST_DURATION_MS);
    expect(messages()).toEqual([]);
  });
});
