import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REF_ALPHABET, REF_LENGTH, refFromBytes, refInText, withChatRef } from "~/leads/chat-ref";

const REF = "DRB-7K2QX";
const SHAPE = new RegExp(`^DRB-[${REF_ALPHABET}]{${REF_LENGTH}}$`);

/** Another lead's reference as a message might quote it: any case, dash, space or nothing. */
const quotedRef = fc
  .tuple(
    fc.constantFrom("DRB", "drb", "Drb"),
    fc.constantFrom("-", " ", "", "\n"),
    fc.array(fc.constantFrom(...REF_ALPHABET), { minLength: REF_LENGTH, maxLength: REF_LENGTH }),
  )
  .map(([prefix, separator, characters]) => ` ${prefix}${separator}${characters.join("")} `);

describe("the reference's alphabet", () => {
  it("has no look-alikes (0 O 1 I L U V), capitals and digits only, each once", () => {
    for (const lookAlike of "0O1ILUV") expect(REF_ALPHABET).not.toContain(lookAlike);
    expect(REF_ALPHABET).toMatch(/^[2-9A-Z]+$/);
    expect(new Set(REF_ALPHABET).size).toBe(REF_ALPHABET.length);
  });
});

describe("refFromBytes", () => {
  it("gives DRB- and five characters of the alphabet, the same for the same bytes", () => {
    const bytes = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(refFromBytes(bytes)).toMatch(SHAPE);
    expect(refFromBytes(Uint8Array.from(bytes))).toBe(refFromBytes(bytes));
  });

  it("reads the first 8 bytes as a number, least significant character first", () => {
    expect(refFromBytes(new Uint8Array(8))).toBe("DRB-22222");
    expect(refFromBytes(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 1]))).toBe("DRB-32222");
    // 29 is the alphabet's length: one carried into the second character.
    expect(refFromBytes(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 29]))).toBe("DRB-23222");
    // Bytes past the eighth change nothing.
    expect(refFromBytes(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 1, 255, 255]))).toBe("DRB-32222");
  });

  it("uses every character of the alphabet and nothing else", () => {
    const seen = new Set<string>();
    for (let n = 0; n < 2000; n++) {
      const bytes = new Uint8Array(8);
      new DataView(bytes.buffer).setBigUint64(0, (BigInt(n) * 0x9e3779b97f4a7c15n) % 2n ** 64n);
      for (const character of refFromBytes(bytes).slice(4)) seen.add(character);
    }
    expect([...seen].sort().join("")).toBe([...REF_ALPHABET].sort().join(""));
  });
});

describe("refInText", () => {
  it.each([
    ["the prefilled line", `Hello, I'd like to know more\n\nRef ${REF}`],
    ["lower case", "ref drb-7k2qx"],
    ["mixed case", "Ref Drb-7k2Qx please"],
    ["a space for the dash", "DRB 7K2QX"],
    ["no dash", "my code is DRB7K2QX."],
    ["Arabic text around it", `مرحبا، أريد معرفة المزيد عن التطبيق\n\nالمرجع ${REF}`],
    ["Arabic letters right against it", "رقمdrb-7k2qxشكرا"],
  ])("finds the reference in %s, in capitals", (_label, text) => {
    expect(refInText(text)).toBe(REF);
  });

  it.each([
    ["no reference", "Hi, how much are the lessons?"],
    ["a look-alike letter", "Ref DRB-7K2QO"],
    ["four characters", "Ref DRB-7K2Q"],
    ["six characters", "Ref DRB-7K2QXY"],
    ["a word glued in front", "XDRB-7K2QX"],
    ["another prefix", "Ref ABC-7K2QX"],
  ])("finds none with %s", (_label, text) => {
    expect(refInText(text)).toBeNull();
  });

  it("takes the last reference when a message quotes more than one", () => {
    expect(refInText("DRB-22222 or DRB-33333")).toBe("DRB-33333");
    expect(refInText(`Hi, about DRB-22222\n\nRef ${REF}`)).toBe(REF);
    expect(refInText("drb 22222, drb33333 and then DRB-44444.")).toBe("DRB-44444");
  });

  it("reads the reference the site appends, whatever the text before it quotes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 12 }), quotedRef), { maxLength: 6 }),
        fc.constantFrom("Ref", "المرجع"),
        (parts, label) => {
          const text = parts.join("");
          const link = withChatRef(
            `https://wa.me/971500000000?text=${encodeURIComponent(text)}`,
            REF,
            label,
          );
          expect(refInText(new URL(link).searchParams.get("text") ?? "")).toBe(REF);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("withChatRef", () => {
  it("appends the reference on a line of its own to a wa.me link's text, spaces as %20", () => {
    const link = withChatRef("https://wa.me/971500000000?text=Hello%20there", REF, "Ref");
    expect(link).toBe("https://wa.me/971500000000?text=Hello%20there%0A%0ARef%20DRB-7K2QX");
    expect(link).not.toContain("+");
    expect(new URL(link).searchParams.get("text")).toBe(`Hello there\n\nRef ${REF}`);
  });

  it("makes the reference the whole text when the link had none", () => {
    expect(withChatRef("https://wa.me/971500000000", REF, "Ref")).toBe(
      "https://wa.me/971500000000?text=Ref%20DRB-7K2QX",
    );
  });

  it("keeps an Arabic greeting and label whole", () => {
    const greeting = "مرحبا، أريد معرفة المزيد";
    const link = withChatRef(
      `https://wa.me/971500000000?text=${encodeURIComponent(greeting)}`,
      REF,
      "المرجع",
    );
    expect(new URL(link).searchParams.get("text")).toBe(`${greeting}\n\nالمرجع ${REF}`);
    expect(refInText(new URL(link).searchParams.get("text") ?? "")).toBe(REF);
  });

  it("keeps the link's other parameters on api.whatsapp.com", () => {
    const link = withChatRef(
      "https://api.whatsapp.com/send?phone=971500000000&text=Hi&app_absent=0",
      REF,
      "Ref",
    );
    const url = new URL(link);
    expect(url.origin + url.pathname).toBe("https://api.whatsapp.com/send");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      phone: "971500000000",
      text: `Hi\n\nRef ${REF}`,
      app_absent: "0",
    });
  });

  it.each([
    "mailto:hello@darb.example?subject=Hi",
    "https://darb.example/?text=Hi",
    "http://wa.me/971500000000?text=Hi",
    "https://wa.me.example.com/971500000000?text=Hi",
    "tel:+971500000000",
    "not a link at all",
  ])("leaves %s as it is", (target) => {
    expect(withChatRef(target, REF, "Ref")).toBe(target);
  });
});
