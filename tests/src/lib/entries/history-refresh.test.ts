/**
 * The history's refresh: one at a time per partner, so a partner who signs in while the previous
 * partner's refresh is still under way gets a refresh of their own.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';

const signedIn = vi.hoisted(() => ({ partnerId: 'partner-a' as string | null }));
const pendingLists = vi.hoisted(() => [] as ((answer: unknown) => void)[]);

vi.mock('../../../../src/lib/partner', () => ({
  currentPartnerId: () => signedIn.partnerId,
  usePartnerId: () => signedIn.partnerId,
}));
vi.mock('../../../../src/lib/entries/list-repairs', () => ({
  listRepairs: vi.fn(() => new Promise((resolve) => pendingLists.push(resolve))),
}));

const { refreshHistory } = await import('../../../../src/lib/entries/history');
const { listRepairs } = await import('../../../../src/lib/entries/list-repairs');

afterEach(() => {
  pendingLists.splice(0).forEach((answer) => answer({ status: 'success', data: [] }));
  vi.mocked(listRepairs).mockClear();
});

describe('refreshHistory', () => {
  it('shares the refresh under way with a screen asking for the same partner', async () => {
    signedIn.partnerId = 'partner-a';
    const first = refreshHistory();
    const second = refreshHistory();
    expect(second).toBe(first);
    expect(listRepairs).toHaveBeenCalledTimes(1);
  });

  it('fetches the history of a partner who signs in while the previous partner’s refresh is under way', async () => {
    signedIn.partnerId = 'partner-b';
    const previous = refreshHistory();
    signedIn.partnerId = 'partner-c';
    const next = refreshHistory();
    expect(next).not.toBe(previous);
    expect(listRepairs).toHaveBeenCalledTimes(2);
    pendingLists.splice(0).forEach((answer) => answer({ status: 'success', data: [] }));
    await expect(Promise.all([previous, next])).resolves.toEqual([true, true]);
  });
});
