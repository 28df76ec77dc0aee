import type { Locator } from "@playwright/test";

/**
 * The text of `root` as a visitor reads it, scrolling down. Parts below the first screen are laid
 * out only as they near the viewport (`content-visibility: auto`), and innerText leaves a part out
 * until then: each one is brought on screen and read there.
 */
export function textAsRead(root: Locator): Promise<string> {
  return root.evaluate(async (element) => {
    const frames = () =>
      new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const parts = [...element.querySelectorAll<HTMLElement>("*")].filter(
      (part) => getComputedStyle(part).contentVisibility === "auto",
    );
    const texts = [(element as HTMLElement).innerText];
    for (const part of parts) {
      part.scrollIntoView({ behavior: "instant" });
      await frames();
      texts.push(part.innerText);
    }
    window.scrollTo({ top: 0, behavior: "instant" });
    return texts.join("\n");
  });
}
