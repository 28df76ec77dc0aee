import type { footer as en } from "~/content/footer";
import type { Localized } from "~/content/localized";

export const footer: Localized<typeof en> = {
  address: "دبي، الإمارات",
  navLabel: "روابط التذييل",
  contactHeading: "تواصل معنا",
  pagesHeading: "الموقع",
  sectionsHeading: "في هذه الصفحة",
  rights: "جميع الحقوق محفوظة.",
  legal: { privacy: "الخصوصية", terms: "الشروط" },
  links: [
    { label: "الرئيسية", href: "/" },
    { label: "شارك درب", href: "/share" },
    { label: "خريطة الموقع", href: "/sitemap" },
  ],
};
