import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { iconMarkup } from "~/browser/icon-markup";
import { Icon } from "~/components/Icon";

describe("iconMarkup", () => {
  it("is what the Icon component renders", () => {
    expect(iconMarkup("copy", "size-5")).toBe(
      renderToStaticMarkup(<Icon name="copy" className="size-5" />),
    );
    expect(iconMarkup("close", "size-4")).toBe(
      renderToStaticMarkup(<Icon name="close" className="size-4" />),
    );
  });
});
