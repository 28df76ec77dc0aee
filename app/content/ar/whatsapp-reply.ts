import type { Localized } from "~/content/localized";
import type { whatsappReply as enWhatsappReply } from "~/content/whatsapp-reply";

export const whatsappReply: Localized<typeof enWhatsappReply> = {
  thanks: "شكرًا لمراسلتك درب، مدرّب القيادة المجاني في دبي.",
  ios: "رابط آيفون الخاص بك: {link}",
  android: "رابط أندرويد الخاص بك: {link}",
  either: "افتح الرابط الخاص بهاتفك:",
  install: "افتحه على هاتفك لتثبيت النسخة التجريبية. لديك سؤال؟ ردّ هنا فقط.",
  noLink:
    "وصلتنا رسالتك. يردّ عليك أحد أفراد فريقنا هنا بين 8 صباحًا و10 مساءً بتوقيت دبي، وعادةً خلال ساعة.",
};
