/**
 * The password-reset mail: French first (the portal's default language), then Arabic and English,
 * as plain text and simple HTML. One message for everyone: at this point we do not know which
 * language the partner reads, and the link is the same in all three.
 */
import type { Mail } from '../../plugins/mailer';

const SUBJECT = 'Réinitialisation de votre mot de passe – Portail Partenaire Garage';

interface Section {
  lang: 'fr' | 'ar' | 'en';
  greeting: string;
  request: string;
  action: string;
  ignore: string;
}

const SECTIONS: Section[] = [
  {
    lang: 'fr',
    greeting: 'Bonjour,',
    request: 'Vous avez demandé la réinitialisation du mot de passe de votre compte partenaire.',
    action: 'Ouvrez ce lien pour choisir un nouveau mot de passe (valable 30 minutes, une seule fois) :',
    ignore: "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message : votre mot de passe ne change pas.",
  },
  {
    lang: 'ar',
    greeting: 'مرحبًا،',
    request: 'لقد طلبت إعادة تعيين كلمة مرور حساب الشريك الخاص بك.',
    action: 'افتح هذا الرابط لاختيار كلمة مرور جديدة (صالح لمدة 30 دقيقة ولمرة واحدة):',
    ignore: 'إذا لم تطلب ذلك، فتجاهل هذه الرسالة: لن تتغير كلمة المرور الخاصة بك.',
  },
  {
    lang: 'en',
    greeting: 'Hello,',
    request: 'You asked to reset the password of your partner account.',
    action: 'Open this link to choose a new password (valid for 30 minutes, once):',
    ignore: 'If you did not ask for this, ignore this message: your password stays the same.',
  },
];

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function textSection(section: Section, link: string): string {
  return [section.greeting, '', section.request, section.action, link, '', section.ignore].join('\n');
}

function htmlSection(section: Section, link: string): string {
  const dir = section.lang === 'ar' ? 'rtl' : 'ltr';
  const href = escapeHtml(link);
  return [
    `<div lang="${section.lang}" dir="${dir}">`,
    `<p>${escapeHtml(section.greeting)}</p>`,
    `<p>${escapeHtml(section.request)}<br>${escapeHtml(section.action)}</p>`,
    `<p dir="ltr"><a href="${href}">${href}</a></p>`,
    `<p>${escapeHtml(section.ignore)}</p>`,
    '</div>',
  ].join('\n');
}

export function resetLink(appUrl: string, token: string): string {
  return `${appUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

export function resetMail(to: string, link: string): Mail {
  return {
    to,
    subject: SUBJECT,
    link,
    text: SECTIONS.map((section) => textSection(section, link)).join('\n\n---\n\n') + '\n',
    html: `<!doctype html>\n<html><body>\n${SECTIONS.map((section) => htmlSection(section, link)).join('\n<hr>\n')}\n</body></html>\n`,
  };
}
