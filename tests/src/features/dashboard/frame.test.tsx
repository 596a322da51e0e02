/**
 * The dashboard while the session is still being checked (docs/ARCHITECTURE.md#prerendered-first-screens):
 * its frame, as the prerendered HTML painted it, with nothing of anyone in it. No partner known means
 * nothing asked of the server and nothing read from the tablet's database; the partner's data come in
 * once the session is known.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AuthenticatedLayout } from '../../../../src/app/layouts/AuthenticatedLayout';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { apiRequest } from '../../../../src/lib/api/client';
import { db } from '../../../../src/lib/db';
import { establishSession, getSession } from '../../../../src/lib/session';
import { renderWithApp } from '../../render';
import { FakeApi, partner } from './support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

describe('the dashboard’s frame', () => {
  it('shows the page with nobody’s data while the session is unknown, then the partner’s', async () => {
    const api = new FakeApi();
    api.install();
    expect(getSession().status).toBe('unknown');
    await renderWithApp(
      <AuthenticatedLayout>
        <DashboardPage />
      </AuthenticatedLayout>,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Tableau de bord – Partenaire Garage' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /KODE ID/ })).toHaveProperty('value', '');
    expect(screen.getByRole('button', { name: 'Menu du compte' })).toBeTruthy();
    // Long enough for any effect or live query to have asked.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(vi.mocked(apiRequest)).not.toHaveBeenCalled();
    expect(db.isOpen()).toBe(false);
    expect(screen.queryByText(partner.full_name)).toBeNull();

    await establishSession({ access_token: 'access-token', user: partner });
    expect(await screen.findByText(partner.full_name)).toBeTruthy();
    await waitFor(() =>
      expect(api.calls).toEqual(expect.arrayContaining(['partner GET /repair-types', 'partner GET /statistics'])),
    );
    expect(await screen.findByRole('option', { name: 'Vidange' })).toBeTruthy();
  });
});
