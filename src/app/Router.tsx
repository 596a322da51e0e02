import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { AuthenticatedLayout } from './layouts/AuthenticatedLayout';
import { PublicLayout } from './layouts/PublicLayout';
import { paths } from './paths';
import { FullPageSpinner, SessionGate, type RouteArea } from './SessionGate';

// Each screen is its own chunk: the first load carries only the shell and the screen opened.
const loadDashboardPage = () => import('../features/dashboard/pages/DashboardPage');
const DashboardPage = lazy(loadDashboardPage);
const ProfilePage = lazy(() => import('../features/profile/pages/ProfilePage'));
const LoginPage = lazy(() => import('../features/auth/pages/LoginPage'));
const RegisterPage = lazy(() => import('../features/auth/pages/RegisterPage'));
const ForgotPasswordPage = lazy(() => import('../features/auth/pages/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/pages/ResetPasswordPage'));
const PrivacyConditionsPage = lazy(() => import('../features/legal/pages/PrivacyConditionsPage'));

/**
 * A signed-in mechanic opens the portal on the dashboard: its code starts loading at boot, while the
 * session is checked, instead of after (start-up on a tablet: see `npm run bench`).
 */
export function preloadLandingPage(pathname: string): void {
  if (pathname === paths.dashboard) void loadDashboardPage();
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

const Dashboard = page('authenticated', DashboardPage);
const Profile = page('authenticated', ProfilePage);
const Login = page('public', LoginPage);
const Register = page('public', RegisterPage);
const ForgotPassword = page('public', ForgotPasswordPage);
const ResetPassword = page('public', ResetPasswordPage);
const PrivacyConditions = page('open', PrivacyConditionsPage);

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
