import { iconSymbols } from "~/components/icons.server";

/**
 * The page's icon sprite (a static part), never shown itself: symbols for components/Icon.tsx
 * and the logo for components/BrandMark.tsx.
 */
export function IconSprite() {
  return (
    <svg
      aria-hidden="true"
      className="absolute size-0 overflow-hidden"
      // lucide's drawings and the logo, rendered on this server: nothing from the visitor is in them.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
      dangerouslySetInnerHTML={{ __html: iconSymbols() }}
    />
  );
}
