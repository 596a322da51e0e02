/** Every route path, in one place (docs/PRODUCT.md#screens-and-routes). */
export const paths = {
  dashboard: '/',
  profile: '/profile',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  privacyConditions: '/privacy-conditions',
  /** A mileage certificate's public page; `certificatePath(id)` (contract/certificate.ts) writes one. */
  certificate: '/c/:id',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** The dashboard's tabs, named in its query (`/?tab=history`): the banner's Correct opens the history. */
export const DASHBOARD_TABS = ['add', 'history', 'advices'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];
export const historyTabHref = `${paths.dashboard}?tab=history`;
