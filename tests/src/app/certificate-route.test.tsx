/**
 * A screen whose path names a parameter: a certificate's public page, /c/{id}. The router draws it for
 * any id, open to everyone, in the public frame's wide column, and starts loading its code at boot
 * from such an address as it does for a fixed path.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useParams } from 'wouter';
import { createRouter, type ScreenCode } from '../../../src/app/Router';
import { paths } from '../../../src/config/paths';
import { renderWithApp } from '../render';

function CertificateStandIn() {
  const { id } = useParams<{ id: string }>();
  return <p data-testid="certificate-stand-in">{id}</p>;
}

function SignInStandIn() {
  return <p>Connexion</p>;
}

/** Two screens, the sign-in and the certificate, as src/app/screens.ts names them. */
function screenCode() {
  const load = {
    certificate: vi.fn(async () => ({ default: CertificateStandIn })),
    login: vi.fn(async () => ({ default: SignInStandIn })),
  };
  const screens: Partial<ScreenCode['screens']> = {
    [paths.login]: { area: 'public', load: load.login },
    [paths.certificate]: { area: 'open', wide: true, load: load.certificate },
  };
  const code: ScreenCode = {
    screens: screens as ScreenCode['screens'],
    authenticatedLayout: () => Promise.reject(new Error('no signed-in screen here')),
  };
  return { code, load };
}

describe('the certificate’s route', () => {
  it('draws the page for the id in the address', async () => {
    const { Router } = createRouter(screenCode().code);
    await renderWithApp(<Router />, { path: '/c/7K3M-9QXD-2F8R-TN4W' });
    expect((await screen.findByTestId('certificate-stand-in')).textContent).toBe('7K3M-9QXD-2F8R-TN4W');
  });

  it('gives the page a wider column than a form’s', async () => {
    const { Router } = createRouter(screenCode().code);
    const { unmount } = await renderWithApp(<Router />, { path: '/c/7K3M-9QXD-2F8R-TN4W' });
    const wide = getComputedStyle((await screen.findByTestId('certificate-stand-in')).closest('main > div')!).maxWidth;
    unmount();
    await renderWithApp(<Router />, { path: '/login' });
    const narrow = getComputedStyle((await screen.findByText('Connexion')).closest('main > div')!).maxWidth;
    expect([wide, narrow]).toEqual(['var(--chakra-sizes-5xl)', 'var(--chakra-sizes-lg)']);
  });

  it('starts loading the page’s code at boot from a certificate’s address, and only from one', () => {
    const { code, load } = screenCode();
    const { preloadLandingPage } = createRouter(code);
    preloadLandingPage('/c/');
    preloadLandingPage('/c/7K3M-9QXD-2F8R-TN4W/more');
    expect(load.certificate).not.toHaveBeenCalled();
    preloadLandingPage('/c/7K3M-9QXD-2F8R-TN4W');
    expect(load.certificate).toHaveBeenCalledTimes(1);
    preloadLandingPage('/login');
    expect(load.login).toHaveBeenCalledTimes(1);
  });
});
