import type { Locale } from '../lib/i18n';

/** Each language names itself, so a mechanic can find his own whatever is showing. */
export const LANGUAGE_NAMES: Record<Locale, string> = { fr: 'Français', ar: 'العربية', en: 'English' };
