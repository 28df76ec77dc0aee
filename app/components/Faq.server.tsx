import { Icon } from "~/components/Icon";
import { Section } from "~/components/Section.server";
import { useCopy } from "~/hooks/use-copy.server";

export function Faq() {
  const { faq } = useCopy();
  return (
    <Section id="faq" heading={faq.heading} tone="tinted" layout="side">
      <div className="faq-list">
        {faq.items.map((item) => (
          <details key={item.question} className="group px-5">
            <summary className="disclosure faq-question">
              <h3>{item.question}</h3>
              <Icon name="chevron-down" className="size-5 faq-chevron" />
            </summary>
            <p className="pb-4 muted">{item.answer}</p>
          </details>
        ))}
      </div>
    </Section>
  );
}
