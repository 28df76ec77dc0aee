import type { IconName } from "~/shared/icons";

/**
 * components/Icon.tsx's markup, for code that builds DOM itself (the share menu's copy item, the
 * toasts): code loaded on intent that imported React would split React from React DOM, one more
 * file on every first visit (docs/decisions/009-code-on-intent.md). icon-markup.test.tsx keeps
 * the two the same. shared/icons.ts's ICON_PREFIX is written out too: imported, that module would
 * become a file of its own as well.
 */
export function iconMarkup(name: IconName, className: string): string {
  return `<svg aria-hidden="true" class="icon ${className}"><use href="#icon-${name}"></use></svg>`;
}
