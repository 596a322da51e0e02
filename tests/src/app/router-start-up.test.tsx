/**
 * The router tells the start-up when the first screen is on show (src/lib/start-up.ts): the outbox's
 * sender and the filling of the tablet wait for it, so a screen that could not load must count too.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createRouter } from '../../../src/app/Router';
import { screenCode } from '../../../src/app/screens';
import { afterFirstScreen, SCREEN_SHOWN_MARK } from '../../../src/lib/start-up';
import { renderWithApp } from '../render';

vi.mock('../../../src/features/auth/pages/ForgotPasswordPage', () => {
  throw new Error('the screen’s code could not be fetched');
});

describe('the first screen on show', () => {
  it('is the failure notice when the screen’s code could not be fetched: the work after it does not wait for Retry', async () => {
    const task = vi.fn();
    afterFirstScreen(task);
    const { Router } = createRouter(screenCode);
    await renderWithApp(<Router />, { path: '/forgot-password' });
    await screen.findByRole('button', { name: 'Réessayer' });
    await waitFor(() => expect(task).toHaveBeenCalledTimes(1));
    expect(performance.getEntriesByName(SCREEN_SHOWN_MARK, 'mark')).toHaveLength(1);
  });
});
