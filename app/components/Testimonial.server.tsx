import { Quote } from "lucide-react";
import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

export function Testimonial() {
  const { testimonial } = useCopy();
  return (
    <Section id="testimonial" heading={testimonial.heading} tone="dark">
      <figure className="max-w-3xl">
        <Quote aria-hidden="true" className="size-10 text-road-500" />
        <blockquote className="mt-4 text-xl leading-relaxed font-medium text-balance sm:text-2xl">
          <p>{testimonial.quote}</p>
        </blockquote>
        <figcaption className="mt-6 text-slate-300">
          <span className="block font-semibold text-white">{testimonial.author}</span>
          {testimonial.detail}
        </figcaption>
      </figure>
    </Section>
  );
}
