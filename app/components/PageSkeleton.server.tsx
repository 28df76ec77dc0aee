import { useUi } from "~/hooks/use-site";

// A static part (components/static-parts.ts): in every page, hidden until a client-side navigation.

/**
 * Shown in place of a page while its code and data load on a client-side navigation: a badge, a
 * two-line heading, two lines of text and two buttons, drawn by `.page-skeleton` (tailwind.css)
 * so that every document carries a few bytes of it, not a dozen utilities per bar.
 */
export function PageSkeleton() {
  const { chrome } = useUi();
  return (
    <div role="status" aria-live="polite" data-testid="page-skeleton" className="page-skeleton">
      <span className="sr-only">{chrome.loading}</span>
      <div aria-hidden="true">
        <i />
        <i />
        <i />
        <i />
        <i />
        <p>
          <b />
          <b />
        </p>
      </div>
    </div>
  );
}
