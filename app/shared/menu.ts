/** The mobile menu's rules (docs/product.md, Behaviour: open or closed; closes when a link is chosen). */
export type MenuEvent = "toggle" | "link" | "escape" | "outside" | "wide";

export type MenuState = {
  open: boolean /** Give focus back to the menu button. */;
  refocus: boolean;
};

export const CLOSED: MenuState = { open: false, refocus: false };

export function menuReducer(state: MenuState, event: MenuEvent): MenuState {
  switch (event) {
    case "toggle":
      return { open: !state.open, refocus: state.open };
    case "escape":
      // Escape from inside the menu returns the visitor to where they opened it.
      return state.open ? { open: false, refocus: true } : state;
    case "link":
    case "outside":
    case "wide":
      // The visitor moved on (a section, elsewhere on the page, a wider screen): don't pull focus back.
      return state.open ? CLOSED : state;
  }
}
