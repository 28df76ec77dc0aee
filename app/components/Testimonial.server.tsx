import { Quote } from "lucide-react";
import { InlineIcon } from "~/components/InlineIcon.server";
import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

/** One beta driver's words, unnamed (no invented names), at the top of the dark band. */
export function Testimonial() {
  const { testimonial } = useCopy();
  return (
    <Section id="testimonial" heading={testimonial.heading} tone="dark" className="pb-4 sm:pb-10">
      <figure className="max-w-3xl">
        <InlineIcon icon={Quote} className="size-8 text-road-500" />
        <blockquote className="mt-3 leading-relaxed font-medium sm:text-2xl">
          <p>{testimonial.quote}</p>
        </blockquote>
        <figcaption className="mt-4 text-sm text-slate-300">
          <span className="block font-semibold text-white">{testimonial.author}</span>
          {testimonial.detail}
        </figcaption>
      </figure>
    </Section>
  );
}
