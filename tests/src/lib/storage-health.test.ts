import { describe, expect, it, vi } from 'vitest';
import {
  askForPersistence,
  isEvictingWebKit,
  readStorageHealth,
  storageRisks,
  type StorageEnvironment,
} from '../../../src/lib/storage-health';

const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPAD_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const IPHONE_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const EDGE =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';

function environment(storage: StorageEnvironment['storage'], userAgent = CHROME_ANDROID, installed = false) {
  return { storage, userAgent, installed };
}

describe('storage health', () => {
  it('reads persistence and how full the quota is', async () => {
    const health = await readStorageHealth(
      environment({
        persisted: async () => false,
        estimate: async () => ({ usage: 850 * 2 ** 20, quota: 1000 * 2 ** 20 }),
      }),
    );
    expect(health).toEqual({
      persisted: false,
      usage: { used: 850 * 2 ** 20, quota: 1000 * 2 ** 20, ratio: 0.85 },
      evictsWhenUnused: false,
      installed: false,
    });
    expect(storageRisks(health)).toEqual(['almost-full', 'not-persistent']);
  });

  it('cannot tell without the Storage API, and sees no risk in that', async () => {
    const health = await readStorageHealth(environment(undefined, FIREFOX));
    expect(health).toMatchObject({ persisted: null, usage: null });
    expect(storageRisks(health)).toEqual([]);
  });

  it('treats a failing or quota-less estimate as unknown', async () => {
    const failing = await readStorageHealth(environment({ estimate: () => Promise.reject(new Error('denied')) }));
    expect(failing.usage).toBeNull();
    const quotaless = await readStorageHealth(environment({ estimate: async () => ({ usage: 10, quota: 0 }) }));
    expect(quotaless.usage).toBeNull();
  });

  it('warns from 80 % and not below', async () => {
    const at = async (usage: number) =>
      storageRisks(
        await readStorageHealth(
          environment({ persisted: async () => true, estimate: async () => ({ usage, quota: 100 }) }),
        ),
      );
    expect(await at(79)).toEqual([]);
    expect(await at(80)).toEqual(['almost-full']);
  });

  it('knows the browsers that delete an uninstalled site after days without a visit', () => {
    expect(isEvictingWebKit(IPAD_SAFARI)).toBe(true);
    expect(isEvictingWebKit(IPHONE_CHROME)).toBe(true);
    expect(isEvictingWebKit(CHROME_ANDROID)).toBe(false);
    expect(isEvictingWebKit(EDGE)).toBe(false);
    expect(isEvictingWebKit(FIREFOX)).toBe(false);
  });

  it('asks for installation on such a browser, until the portal runs from the home screen', async () => {
    const storage = { persisted: async () => true };
    expect(storageRisks(await readStorageHealth(environment(storage, IPAD_SAFARI)))).toEqual(['evicted-when-unused']);
    expect(storageRisks(await readStorageHealth(environment(storage, IPAD_SAFARI, true)))).toEqual([]);
  });

  it('asks the browser to keep the data, and says whether it will', async () => {
    const persist = vi.fn(async () => true);
    expect(await askForPersistence(environment({ persist }))).toBe(true);
    expect(persist).toHaveBeenCalledOnce();
    expect(await askForPersistence(environment({ persist: () => Promise.reject(new Error('no')) }))).toBe(false);
    expect(await askForPersistence(environment(undefined))).toBe(false);
  });
});
