// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { copyText } from "~/browser/copy-text";

function shown(text: string) {
  const element = document.createElement("bdi");
  element.textContent = text;
  document.body.append(element);
  return element;
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
  window.getSelection()?.removeAllRanges();
});

describe("copyText", () => {
  it("uses the Clipboard API where there is one", async () => {
    const writeText = vi.spyOn(navigator.clipboard, "writeText").mockResolvedValue(undefined);
    expect(await copyText("hello@darb.ae", shown("hello@darb.ae"))).toBe(true);
    expect(writeText).toHaveBeenCalledWith("hello@darb.ae");
  });

  it("falls back to copying the shown text's selection when the API refuses", async () => {
    vi.spyOn(navigator.clipboard, "writeText").mockRejectedValue(new Error("denied"));
    const exec = vi.fn(() => true);
    Object.defineProperty(document, "execCommand", { value: exec, configurable: true });
    expect(await copyText("hello@darb.ae", shown("hello@darb.ae"))).toBe(true);
    expect(exec).toHaveBeenCalledWith("copy");
    expect(window.getSelection()?.toString()).toBe("hello@darb.ae");
  });

  it("says it failed, and leaves the address selected for the visitor", async () => {
    vi.spyOn(navigator.clipboard, "writeText").mockRejectedValue(new Error("denied"));
    Object.defineProperty(document, "execCommand", { value: () => false, configurable: true });
    expect(await copyText("hello@darb.ae", shown("hello@darb.ae"))).toBe(false);
    expect(window.getSelection()?.toString()).toBe("hello@darb.ae");
  });
});
