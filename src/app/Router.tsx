import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { AuthenticatedLayout } from './layouts/AuthenticatedLayout';
import { PublicLayout } from './layouts/PublicLayout';
import { paths } from './paths';
import { FullPageSpinner, SessionGate, type RouteArea } from './SessionGate';

// Each screen is its own chunk: the first load carries only the shell and the screen opened.
const loaders = {
  [paths.dashboard]: () => import('../features/dashboard/pages/DashboardPage'),
  [paths.profile]: () => import('../features/profile/pages/ProfilePage'),
  [paths.login]: () => import('../features/auth/pages/LoginPage'),
  [paths.register]: () => import('../features/auth/pages/RegisterPage'),
  [paths.forgotPassword]: () => import('../features/auth/pages/ForgotPasswordPage'),
  [paths.resetPassword]: () => import('../features/auth/pages/ResetPasswordPage'),
  [paths.privacyConditions]: () => import('../features/legal/pages/PrivacyConditionsPage'),
} satisfies Record<string, () => Promise<{ default: ComponentType }>>;

/**
 * The screen opened starts loading at boot, alongside the session check and the first render,
 * instead of once the router reaches it: one round trip less before the mechanic sees it (start-up
 * and Lighthouse figures: see `npm run bench`).
 */
export function preloadLandingPage(pathname: string): void {
  const load = (loaders as Record<string, (() => Promise<unknown>) | undefined>)[pathname];
  if (load) void load();
}

function page(area: RouteArea, Page: LazyExoticComponent<ComponentType>) {
  const Layout = area === 'authenticated' ? AuthenticatedLayout : PublicLayout;
  return function GatedPage() {
    return (
      <SessionGate area={area}>
        <Layout>
          <Suspense fallback={<FullPageSpinner />}>
            <Page />
          </Suspense>
        </Layout>
      </SessionGate>
    );
  };
}

const Dashboard = page('authenticated', lazy(loaders[paths.dashboard]));
const Profile = page('authenticated', lazy(loaders[paths.profile]));
const Login = page('public', lazy(loaders[paths.login]));
const Register = page('public', lazy(loaders[paths.register]));
const ForgotPassword = page('public', lazy(loaders[paths.forgotPassword]));
const ResetPassword = page('public', lazy(loaders[paths.resetPassword]));
const PrivacyConditions = page('open', lazy(loaders[paths.privacyConditions]));

export function Router() {
  return (
    <Switch>
      <Route path={paths.dashboard} component={Dashboard} />
      <Route path={paths.profile} component={Profile} />
      <Route path={paths.login} component={Login} />
      <Route path={paths.register} component={Register} />
      <Route path={paths.forgotPassword} component={ForgotPassword} />
      <Route path={paths.resetPassword} component={ResetPassword} />
      <Route path={paths.privacyConditions} component={PrivacyConditions} />
      <Route>
        <Redirect to={paths.dashboard} replace />
      </Route>
    </Switch>
  );
}
