import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { AuthenticatedLayout } from './layouts/AuthenticatedLayout';
import { PublicLayout } from './layouts/PublicLayout';
import { paths } from './paths';
import { FullPageSpinner, SessionGate, type RouteArea } from './SessionGate';

type ScreenPath = (typeof paths)[keyof typeof paths];

interface Screen {
  area: RouteArea;
  load: () => Promise<{ default: ComponentType }>;
}

// Each screen is its own chunk: the first load carries only the shell and the screen opened.
const screens: Record<ScreenPath, Screen> = {
  [paths.dashboard]: { area: 'authenticated', load: () => import('../features/dashboard/pages/DashboardPage') },
  [paths.profile]: { area: 'authenticated', load: () => import('../features/profile/pages/ProfilePage') },
  [paths.login]: { area: 'public', load: () => import('../features/auth/pages/LoginPage') },
  [paths.register]: { area: 'public', load: () => import('../features/auth/pages/RegisterPage') },
  [paths.forgotPassword]: { area: 'public', load: () => import('../features/auth/pages/ForgotPasswordPage') },
  [paths.resetPassword]: { area: 'public', load: () => import('../features/auth/pages/ResetPasswordPage') },
  [paths.privacyConditions]: { area: 'open', load: () => import('../features/legal/pages/PrivacyConditionsPage') },
};

function isScreenPath(pathname: string): pathname is ScreenPath {
  return Object.hasOwn(screens, pathname);
}

/**
 * The screen opened starts loading at boot, alongside the session check and the first render,
 * instead of once the router reaches it: one round trip less before the mechanic sees it (start-up
 * and Lighthouse figures: see `npm run bench`).
 */
export function preloadLandingPage(pathname: string): void {
  if (isScreenPath(pathname)) void screens[pathname].load();
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

const routes = Object.entries(screens).map(([path, screen]) => ({
  path,
  component: page(screen.area, lazy(screen.load)),
}));

export function Router() {
  return (
    <Switch>
      {routes.map(({ path, component }) => (
        <Route key={path} path={path} component={component} />
      ))}
      <Route>
        <Redirect to={paths.dashboard} replace />
      </Route>
    </Switch>
  );
}
