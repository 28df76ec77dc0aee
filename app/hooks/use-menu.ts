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
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") dispatch("escape");
    };
    const onPointer = (event: PointerEvent) => {
      if (container.current && !container.current.contains(event.target as Node))
        dispatch("outside");
    };
    // A link chosen in the header: a section, or a page away (not still open on coming Back).
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element).closest?.("a[href]");
      if (link && container.current?.contains(link)) dispatch("link");
    };
    const wide = window.matchMedia("(min-width: 1024px)");
    const onWide = () => {
      if (wide.matches) dispatch("wide");
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("click", onClick);
    wide.addEventListener("change", onWide);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("click", onClick);
      wide.removeEventListener("change", onWide);
    };
  }, [state.open, container]);

  useEffect(() => {
    if (state.refocus) button.current?.focus();
  }, [state.refocus, button]);

  const send = useCallback((event: MenuEvent) => dispatch(event), []);
  return { open: state.open, send };
}
