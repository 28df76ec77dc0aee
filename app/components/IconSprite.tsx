import { iconSymbols } from "~/lib/icons.server";

/** The page's icon sprite (a static part): symbols for components/Icon.tsx, never shown itself. */
export function IconSprite() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      className="absolute size-0 overflow-hidden"
      // lucide's own drawings, rendered on this server: nothing from the visitor is in them.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
      dangerouslySetInnerHTML={{ __html: iconSymbols() }}
    />
  );
}
