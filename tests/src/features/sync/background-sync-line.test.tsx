/**
 * The sending panel says what the browser promises (docs/ARCHITECTURE.md#the-offline-model-in-practice):
 * with Background Sync (Chromium), entries leave even once the portal is closed; without it (Safari,
 * Firefox), only while it is open and connected.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectivityIndicator } from '../../../../src/features/sync/components/ConnectivityIndicator';
import { renderWithApp } from '../../render';
import { expectVisible } from '../../support/dom';
import { resetPortal, signIn } from '../dashboard/support';

const WITH = 'Les saisies partent même portail fermé, dès que la connexion revient.';
const WITHOUT = 'Les saisies partent quand le portail est ouvert et connecté.';

async function openPanel(): Promise<HTMLElement> {
  await renderWithApp(<ConnectivityIndicator />);
  await userEvent.click(screen.getByRole('button', { name: /détails de l'envoi/ }));
  return screen.findByRole('dialog', { name: 'Envoi des saisies' });
}

beforeEach(async () => {
  await resetPortal();
  await signIn();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the sending panel and background sync', () => {
  it('where the browser has it, says entries leave even with the portal closed', async () => {
    vi.stubGlobal('ServiceWorkerRegistration', { prototype: { sync: undefined } });
    const panel = await openPanel();
    expectVisible(await within(panel).findByText(WITH));
    expect(within(panel).queryByText(WITHOUT)).toBeNull();
  });

  it('where it is missing, promises nothing beyond the open portal', async () => {
    const panel = await openPanel();
    expectVisible(await within(panel).findByText(WITHOUT));
    expect(within(panel).queryByText(WITH)).toBeNull();
  });
});
