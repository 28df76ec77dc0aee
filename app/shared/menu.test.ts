import { describe, expect, it } from "vitest";
import { CLOSED, type MenuEvent, menuReducer } from "~/shared/menu";

const run = (...events: MenuEvent[]) => events.reduce(menuReducer, CLOSED);

describe("menuReducer", () => {
  it("opens and closes with the button, giving focus back when it closes", () => {
    expect(run("toggle")).toEqual({ open: true, refocus: false });
    expect(run("toggle", "toggle")).toEqual({ open: false, refocus: true });
  });
  it("closes when a link is chosen, leaving focus with the link's target", () => {
    expect(run("toggle", "link")).toEqual({ open: false, refocus: false });
  });
  it("closes on Escape and returns focus to the button", () => {
    expect(run("toggle", "escape")).toEqual({ open: false, refocus: true });
  });
  it("closes on a click outside, or when the screen becomes wide", () => {
    expect(run("toggle", "outside").open).toBe(false);
    expect(run("toggle", "wide").open).toBe(false);
  });
  it("ignores Escape and outside clicks while closed", () => {
    expect(run("escape")).toBe(CLOSED);
    expect(run("outside")).toBe(CLOSED);
  });
});
