/** Every route path, in one place (docs/PRODUCT.md#screens-and-routes). */
export const paths = {
  dashboard: '/',
  profile: '/profile',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  privacyConditions: '/privacy-conditions',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
