import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { ShortLabel } from "~/components/ShortLabel.server";
import { heroCtas as arCtas } from "~/content/ar/conversion";
import { landing as arLanding } from "~/content/ar/landing";
import { heroCtas as enCtas } from "~/content/conversion";
import { landing as enLanding } from "~/content/landing";

const render = (text: string, short: string) =>
  renderToStaticMarkup(<ShortLabel text={text} short={short} />);

it("shows the label's start, and keeps its end for screen readers", () => {
  expect(render("Get the app on WhatsApp", "Get the app")).toBe(
    'Get the app<span class="label-rest"> on WhatsApp</span>',
  );
});

it("shows the whole label when the short form is not its start, or is all of it", () => {
  for (const short of ["WhatsApp", "Get it", "", "Get the app on WhatsApp"]) {
    expect(render("Get the app on WhatsApp", short)).toBe("Get the app on WhatsApp");
  }
});

it.each([
  ["en", enCtas, enLanding],
  ["ar", arCtas, arLanding],
] as const)("the main action's short form in %s is the start of its label", (_, ctas, landing) => {
  const [main] = ctas;
  expect(main.text.startsWith(landing.hero.mainActionShort)).toBe(true);
  expect(landing.hero.mainActionShort.length).toBeLessThan(main.text.length);
  // It ends on a word, not inside one.
  expect(main.text.slice(landing.hero.mainActionShort.length)).toMatch(/^ /);
});
