/** The partner conditions shown on /privacy-conditions (settings documents, HTML). */
export const PARTNER_CONDITIONS: Record<
  'partner_conditions' | 'partner_conditions_ar' | 'partner_conditions_en',
  string
> = {
  partner_conditions: '<h2>Conditions</h2>',
  partner_conditions_ar: '<h2>الشروط</h2>',
  partner_conditions_en: '<h2>Conditions</h2>',
};
