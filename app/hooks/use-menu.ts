import { type RefObject, useCallback, useEffect, useReducer } from "react";
import { CLOSED, type MenuEvent, menuReducer } from "~/shared/menu";

/**
 * The mobile menu's behaviour: Escape, clicks outside `container` and a link chosen inside it
 * close it, so does a screen growing past the breakpoint; focus goes back to `button` when the
 * visitor dismissed it.
 */
export function useMenu(
  container: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
) {
  const [state, dispatch] = useReducer(menuReducer, CLOSED);

  useEffect(() => {
    if (!state.open) return;
    // One abort takes every listener away.
    const listening = new AbortController();
    const on = { signal: listening.signal };
    document.addEventListener(
      "keydown",
      (event) => {
        if (event.key === "Escape") dispatch("escape");
      },
      on,
    );
    document.addEventListener(
      "pointerdown",
      (event) => {
        if (container.current && !container.current.contains(event.target as Node))
          dispatch("outside");
      },
      on,
    );
    // A link chosen in the header: a section, or a page away (not still open on coming Back).
    document.addEventListener(
      "click",
      (event) => {
        const link = (event.target as Element).closest?.("a[href]");
        if (link && container.current?.contains(link)) dispatch("link");
      },
      on,
    );
    const wide = window.matchMedia("(min-width: 1024px)");
    wide.addEventListener(
      "change",
      () => {
        if (wide.matches) dispatch("wide");
      },
      on,
    );
    return () => listening.abort();
  }, [state.open, container]);

  useEffect(() => {
    if (state.refocus) button.current?.focus();
  }, [state.refocus, button]);

  const send = useCallback((event: MenuEvent) => dispatch(event), []);
  return { open: state.open, send };
}
