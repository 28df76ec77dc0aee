import { BellRing, BrainCircuit, ChartNoAxesCombined, Route, Wallet } from "lucide-react";
import type { Localized } from "~/content/localized";
import type {
  features as enFeatures,
  howItWorks as enHowItWorks,
  safetyResults as enSafetyResults,
} from "~/content/sections";

/** How it works, features and safety results: what the app does, specific to Dubai's roads. */
export const howItWorks: Localized<typeof enHowItWorks> = {
  heading: "كيف يعمل",
  intro: "ثلاث خطوات، بلا أجهزة إضافية وبلا أوراق.",
  steps: [
    {
      title: "احصل على دعوتك عبر واتساب",
      body: "راسلنا واحصل على رابط النسخة التجريبية لآيفون أو أندرويد خلال ساعة، من 8 صباحًا حتى 10 مساءً.",
    },
    {
      title: "قُد كما تقود دائمًا",
      body: "ثبّت هاتفك على الحامل. يبدأ درب تلقائيًا حين تتجاوز 15 كم/س، ويتوقف حين تركن سيارتك.",
    },
    {
      title: "تدرّب، واحصل على استرداد نقدي",
      body: "بعد كل رحلة: درجة، ونصيحة واحدة تعمل عليها. حافظ على مستواك، وسنرسل لشركة التأمين التقرير اللازم للاسترداد النقدي.",
    },
  ],
};

export const features: Localized<typeof enFeatures> = {
  heading: "كل ما يحتاجه السائق في دبي، في تطبيق واحد مجاني",
  intro:
    "صمّمناه حول الطرق التي تسلكها كل يوم، من زحمة الصباح على شارع الخيل إلى شارع E11 الخالي في منتصف الليل.",
  items: [
    {
      icon: BrainCircuit,
      title: "تدريب على السلامة بالذكاء الاصطناعي",
      body: "يتعلّم أسلوبك في الفرملة والانعطاف وترك المسافة، ثم يدرّبك على العادة التي تكلّفك أكثر، مثل الفرملة المتأخرة عند طابور التقاطع الأول.",
    },
    {
      icon: BellRing,
      title: "تنبيهات فورية",
      body: "تحذيرات صوتية قبل رادارات هيئة الطرق والمواصلات، ومناطق المدارس وقت خروج الطلاب، والازدحام المتوقف أمامك، والضباب والعواصف الرملية.",
    },
    {
      icon: Route,
      title: "تحسين المسارات",
      body: "يوازن بين حركة المرور الحيّة وبوابات سالك، لتعرف إن كانت رسوم العبور تستحق الدقائق التي توفّرها.",
    },
    {
      icon: ChartNoAxesCombined,
      title: "تحليلات بعد كل رحلة",
      body: "كل رحلة على خريطة تُظهر الفرملة القوية وتجاوز السرعة وحمل الهاتف، مع مسار درجتك أسبوعًا بعد أسبوع.",
    },
    {
      icon: Wallet,
      title: "استرداد نقدي حتى 25% من التأمين",
      body: "قيادتك الآمنة تعيد لك حتى 25% من قسط التأمين عبر شركات التأمين الشريكة، ودرب يُعدّ تقرير القيادة الذي تطلبه.",
    },
  ],
};

export const safetyResults: Localized<typeof enSafetyResults> = {
  heading: "هكذا يبدو أسبوع من التدريب",
  intro:
    "تقرير نموذجي من التطبيق لمشوار يومي مدته 35 دقيقة من البرشاء إلى مركز دبي المالي العالمي.",
  exampleLabel: "تقرير نموذجي",
  week: "الأسبوع الثالث من التدريب",
  metrics: [
    { label: "درجة القيادة", before: "71", after: "88", note: "من 100" },
    { label: "الفرملة القوية", before: "9", after: "3", note: "لكل 100 كم" },
    { label: "الوقت فوق الحد المسموح", before: "6%", after: "1%", note: "من وقت القيادة" },
    { label: "حمل الهاتف باليد", before: "4", after: "0", note: "في كل رحلة" },
  ],
  beforeLabel: "الأسبوع الأول",
  afterLabel: "الأسبوع الثالث",
  takeaway:
    "نصيحة التدريب في ذلك الأسبوع: اترك مسافة ثلاث ثوانٍ على شارع الشيخ زايد، فمعظم الفرملة القوية كان سببها الاقتراب الزائد من السيارة الأمامية بين التقاطعين الثاني والرابع.",
};
