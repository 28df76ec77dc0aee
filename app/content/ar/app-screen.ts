import type { appScreen as en } from "~/content/app-screen";
import type { Localized } from "~/content/localized";

/** The app screens drawn for the page: the same figures as in English; the cashback is an example. */
export const appScreen: Localized<typeof en> = {
  drive: {
    label:
      "درب على شارع الشيخ زايد. رادار سرعة بعد 400\u00a0م: الحد 100 كم/س، سرعتك\u00a0112. درجة القيادة 92. داون تاون بعد 18 دقيقة. استرداد نقدي: 86 درهمًا هذا العام، على سبيل المثال.",
    alert: "رادار سرعة بعد 400\u00a0م",
    alertNote: "الحد 100 كم/س · سرعتك\u00a0112",
    limit: 100,
    speed: 112,
    unit: "كم/س",
    road: "شارع الشيخ زايد",
    score: 92,
    scoreLabel: "درجة القيادة",
    eta: "18 دقيقة",
    destination: "داون تاون",
    cashback: "استرداد نقدي: 86 درهمًا هذا العام",
  },
  report: {
    label:
      "تقرير درب الأسبوعي، الأسبوع الثالث من التوجيه: درجة القيادة من 71 إلى 88؛ الفرملة القوية من 9 إلى 3 لكل 100 كم؛ حمل الهاتف باليد من 4 إلى 0؛ نصيحة: اترك مسافة 3 ثوانٍ على شارع الشيخ زايد؛ استرداد نقدي متوقع يصل إلى 25%، مثلًا 86 درهمًا هذا العام.",
    title: "التقرير الأسبوعي",
    week: "الأسبوع الثالث من التوجيه",
    scoreLabel: "درجة القيادة",
    scores: [71, 88],
    weeks: ["الأسبوع 1", "الأسبوع 2", "الأسبوع 3"],
    metrics: [
      { label: "الفرملة القوية", before: 9, after: 3, note: "لكل 100 كم" },
      { label: "حمل الهاتف باليد", before: 4, after: 0, note: "في كل رحلة" },
    ],
    tip: ["نصيحة: اترك مسافة 3 ثوانٍ", "على شارع الشيخ زايد"],
    cashback: "الاسترداد النقدي المتوقع",
    cashbackValue: "86 درهمًا هذا العام",
    upTo: "حتى 25%",
  },
};
