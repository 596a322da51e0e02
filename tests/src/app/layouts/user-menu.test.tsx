/**
 * The account button in the header (src/app/layouts/UserMenu.tsx): the partner's name beside a
 * person icon, replaced by their picture once it has loaded, and the icon again when it cannot be.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UserMenu } from '../../../../src/app/layouts/UserMenu';
import { renderWithApp } from '../../render';
import { partner, signIn, useDashboardSetting } from '../../features/dashboard/support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

useDashboardSetting();

const accountButton = () => screen.getByRole('button', { name: 'Garage El Amel – Menu du compte' });
const personIcon = () => accountButton().querySelector('svg');
const picture = () => accountButton().querySelector('img');

describe('the account button', () => {
  it('shows a person icon beside the name when the partner has no picture', async () => {
    await renderWithApp(<UserMenu />);
    expect(accountButton().textContent).toBe('Garage El Amel');
    expect(personIcon()).not.toBeNull();
    expect(picture()).toBeNull();
  });

  it('shows the picture once it has loaded, and the icon again when it cannot be fetched', async () => {
    await signIn({ ...partner, picture: 'garage el amel.png' });
    await renderWithApp(<UserMenu />);
    const image = picture()!;
    expect(image.getAttribute('src')).toMatch(/\/garage%20el%20amel\.png$/);
    // Not drawn until it has loaded: the icon holds its place meanwhile.
    expect(getComputedStyle(image).visibility).toBe('hidden');
    expect(personIcon()).not.toBeNull();

    fireEvent.load(image);
    expect(getComputedStyle(picture()!).visibility).toBe('visible');
    expect(personIcon()).toBeNull();

    fireEvent.error(picture()!);
    expect(getComputedStyle(picture()!).visibility).toBe('hidden');
    expect(personIcon()).not.toBeNull();
  });
});
