import type { Localized } from "~/content/localized";
import type {
  share as enShare,
  shareMessages as enShareMessages,
  sharePage as enSharePage,
} from "~/content/share";

export const share: Localized<typeof enShare> = {
  button: "شارك",
  menuLabel: "شارك درب",
  title: "درب: مدرّب القيادة الذكي المجاني في دبي",
  text: "أستخدم درب، مدرّب قيادة ذكي ومجاني في دبي: توجيه للقيادة الآمنة، وتنبيهات الرادارات، واسترداد حتى 25% من قسط تأمين السيارة.",
  platforms: {
    facebook: "فيسبوك",
    twitter: "إكس (تويتر)",
    linkedin: "لينكدإن",
    whatsapp: "واتساب",
  },
  opensInNewWindow: "(يُفتح في نافذة جديدة)",
};

/** The message each network carries (Facebook's sharer shows only the link's own preview). */
export const shareMessages: Localized<typeof enShareMessages> = {
  default: share.text,
  whatsapp:
    "ألقِ نظرة على درب، مدرّب قيادة ذكي ومجاني في دبي. ينبّهك قبل الرادارات ومناطق المدارس، ويعطي كل رحلة درجة، وقد يعيد إليك حتى 25% من قسط تأمين سيارتك.",
  twitter:
    "درب مدرّب قيادة مجاني بالذكاء الاصطناعي في دبي: تنبيهات الرادارات، ودرجة بعد كل رحلة، واسترداد حتى 25% من قسط التأمين.",
};

/** The /share page. */
export const sharePage: Localized<typeof enSharePage> = {
  heading: "شارك درب مع سائق تعرفه",
  intro:
    "صديق يعلق في زحمة شارع الخيل كل صباح، أو سائق جديد ما زال يتعرّف على أماكن الرادارات، أو أحد الوالدين في مشوار المدرسة: أرسل لهم درب. إنه مجاني، ولن يستغرق الحصول عليه أكثر من دقيقة.",
  previewHeading: "ما سيصلهم",
  previewFor: "كما يظهر على {network}",
  platformsHeading: "شاركه على",
  shareOn: "شارك على {network}",
  linkHeading: "أو أرسل الرابط بنفسك",
  native: "طرق أخرى للمشاركة",
};
