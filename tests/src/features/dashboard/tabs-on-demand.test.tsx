/**
 * The dashboard opens on the entry form; the History and Advices tabs' code is not loaded with it,
 * but once the mechanic starts working on the page (docs/ARCHITECTURE.md#start-up).
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { renderWithApp } from '../../render';
import { useDashboardSetting } from './support';

const loaded = vi.hoisted(() => ({ history: false, advices: false }));

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});
vi.mock('../../../../src/features/dashboard/components/HistoryTable', async (importOriginal) => {
  loaded.history = true;
  return importOriginal();
});
vi.mock('../../../../src/features/dashboard/components/AdvicesPanel', async (importOriginal) => {
  loaded.advices = true;
  return importOriginal();
});

useDashboardSetting();

describe('the other tabs', () => {
  it('load once the mechanic types or taps, not with the form', async () => {
    await renderWithApp(<DashboardPage />);
    const kodeId = await screen.findByRole('textbox', { name: /KODE ID/ });
    expect(loaded).toEqual({ history: false, advices: false });

    fireEvent.keyDown(kodeId, { key: 'K' });
    await vi.waitFor(() => expect(loaded).toEqual({ history: true, advices: true }));
  });
});
