import type { Locale } from "~/shared/locale";
import type { Palette } from "./palette";

/**
 * The drawing's size in SVG units: a phone of 9:19.5 at 288 wide (the hero's `sm:w-72`), so one
 * unit is one CSS pixel there and text sizes read as the page's. The screen sits 6 in.
 */
export const WIDTH = 288;
export const HEIGHT = 624;
export const INSET = 6;

/**
 * The hero's drive on a phone ("drive-cropped"): the map between the alert and the sheet is cut
 * out, so the alert, the drive score and the cashback fit on the first screen whole.
 * The cards move up by `CROP`; the map by `MAP_SHIFT`, which brings the route and the car into
 * the strip left between them.
 */
export const CROP = 300;
export const CROPPED_HEIGHT = HEIGHT - CROP;
export const MAP_SHIFT = 230;

/**
 * Where things go in the page's writing direction. Coordinates are written for English, left to
 * right; in Arabic the screen's furniture is mirrored as the HTML mirrors it (the map is not:
 * it is geography). Text anchored "start" starts at the right in Arabic through `direction`.
 */
export type Side = {
  rtl: boolean;
  /** A point's x. */
  x: (x: number) => number;
  /** The left edge of a box of `width` whose left edge is `x` in English. */
  box: (x: number, width: number) => number;
};

/** To a tenth of a unit: 288 − 237.6 is 50.400000000000006 in floating point. */
const tenth = (value: number) => Math.round(value * 10) / 10;

export function sideOf(locale: Locale): Side {
  const rtl = locale === "ar";
  return {
    rtl,
    x: (x) => (rtl ? tenth(WIDTH - x) : x),
    box: (x, width) => (rtl ? tenth(WIDTH - x - width) : x),
  };
}

/** What every part of a screen draws with: the words' direction and the scheme's colours. */
export type Ink = { side: Side; colour: Palette };
