/**
 * Each screen's code, and the signed-in frame's, loaded on demand: the one module that names their
 * chunks. It is in the page's entry chunk with src/main.tsx, which hands it to the router: no shared
 * module imports it, so a change to one screen renames that screen's chunk and this small entry, never
 * the shared chunks every screen imports (vite.config.ts, docs/decisions/0033-an-update-downloads-what-changed.md).
 */
import type { ScreenCode } from './Router';
import { paths } from '../config/paths';

export const screenCode: ScreenCode = {
  screens: {
    [paths.dashboard]: { area: 'authenticated', load: () => import('../features/dashboard/pages/DashboardPage') },
    [paths.profile]: { area: 'authenticated', load: () => import('../features/profile/pages/ProfilePage') },
    [paths.login]: { area: 'public', load: () => import('../features/auth/pages/LoginPage') },
    [paths.register]: { area: 'public', load: () => import('../features/auth/pages/RegisterPage') },
    [paths.forgotPassword]: { area: 'public', load: () => import('../features/auth/pages/ForgotPasswordPage') },
    [paths.resetPassword]: { area: 'public', load: () => import('../features/auth/pages/ResetPasswordPage') },
    [paths.privacyConditions]: { area: 'open', load: () => import('../features/legal/pages/PrivacyConditionsPage') },
    [paths.certificate]: {
      area: 'open',
      // The certificate's table and its print lay out wider than a form.
      wide: true,
      load: () => import('../features/certificate/pages/CertificatePage'),
    },
  },
  authenticatedLayout: async () => ({ default: (await import('./layouts/AuthenticatedLayout')).AuthenticatedLayout }),
};
