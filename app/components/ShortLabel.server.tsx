/**
 * A call to action's words that drop their end on a small phone, where the button has no room
 * for them on one line (`label-rest` in tailwind.css): the end stays for screen readers, so the
 * link's name is still the whole label, and what is seen is its start (WCAG's label in name).
 * A short form that is not the label's start is ignored: the whole label shows.
 */
export function ShortLabel({ text, short }: { text: string; short: string }) {
  if (!short || short === text || !text.startsWith(short)) return <>{text}</>;
  return (
    <>
      {short}
      <span className="label-rest">{text.slice(short.length)}</span>
    </>
  );
}
