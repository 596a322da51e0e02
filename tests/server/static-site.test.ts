import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allShellVariants, prerenderedFile, shellVariantName } from '../../contract';
import { precompressFile } from '../../scripts/precompress';
import { createTestApp, type TestApp } from '../support/test-app';

const SCRIPT = `export const greeting = ${JSON.stringify('Bonjour, garage. '.repeat(200))};\n`;
const SHELL = `<!doctype html><html lang="fr"><head><title>Portail</title></head><body>${'<div></div>'.repeat(200)}</body></html>`;

describe('the built PWA, served compressed', () => {
  let testApp: TestApp;
  let distDir: string;

  beforeAll(async () => {
    distDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dist-static-'));
    await fs.mkdir(path.join(distDir, 'assets'));
    await fs.writeFile(path.join(distDir, 'index.html'), SHELL);
    await fs.writeFile(path.join(distDir, 'assets', 'app-1a2b3c4d.js'), SCRIPT);
    await fs.writeFile(path.join(distDir, 'assets', 'tiny-1a2b3c4d.js'), 'export {};\n');
    for (const file of ['index.html', 'assets/app-1a2b3c4d.js', 'assets/tiny-1a2b3c4d.js']) {
      await precompressFile(path.join(distDir, file));
    }
    testApp = await createTestApp({ distDir });
  });
  afterAll(async () => {
    await testApp.close();
    await fs.rm(distDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    testApp.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });

  it('sends the Brotli copy to a browser that accepts it, as the same script, cached for a year', async () => {
    const response = await get('/assets/app-1a2b3c4d.js', 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(response.headers['vary']).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.rawPayload.byteLength).toBeLessThan(SCRIPT.length / 10);
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends gzip when Brotli is not accepted, and the plain file when nothing is', async () => {
    const gzipped = await get('/assets/app-1a2b3c4d.js', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/app-1a2b3c4d.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('keeps files too small to gain from compression as they are', async () => {
    await expect(fs.access(path.join(distDir, 'assets', 'tiny-1a2b3c4d.js.br'))).rejects.toThrow();
    const response = await get('/assets/tiny-1a2b3c4d.js', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('export {};\n');
  });

  it('answers a client route with the compressed shell, always revalidated', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await testApp.app.inject({ method, url: '/dashboard', headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['cache-control']).toBe('no-cache');
      if (method === 'GET') expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(SHELL);
    }
  });

  it('never answers an unknown API path with the shell', async () => {
    const response = await get('/api/nothing-here', 'br');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers every unmatched API path 404 not_found in the envelope: an empty segment, a long one, any method', async () => {
    const longSegment = 'a'.repeat(300);
    const paths = [
      '/api/partner//statistics',
      '/api//partner/statistics',
      `/api/partner/${longSegment}`,
      `/api/${longSegment}/x`,
      '/api/partner/statistics/extra',
    ];
    for (const url of paths) {
      for (const method of ['GET', 'HEAD', 'POST', 'DELETE'] as const) {
        const response = await testApp.app.inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        if (method === 'HEAD') continue;
        expect(response.json(), `${method} ${url}`).toMatchObject({
          code: 404,
          status: 'error',
          error: { type: 'not_found', reason: 'not_found' },
        });
      }
    }
  });
});

describe('the prerendered first screens (docs/ARCHITECTURE.md#prerendered-first-screens)', () => {
  let testApp: TestApp;
  let distDir: string;
  const page = (variant: string) => `<!doctype html><html><body><p>login ${variant}</p></body></html>`;

  beforeAll(async () => {
    distDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dist-prerendered-'));
    await fs.writeFile(path.join(distDir, 'index.html'), SHELL);
    for (const variant of allShellVariants()) {
      const file = path.join(distDir, prerenderedFile('/login', variant)!);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, page(shellVariantName(variant)));
    }
    testApp = await createTestApp({ distDir });
  });
  afterAll(async () => {
    await testApp.close();
    await fs.rm(distDir, { recursive: true, force: true });
  });

  const get = (url: string, cookie?: string) =>
    testApp.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  it('sends the page in the language and colour mode its cookies name, varying by cookie, always revalidated', async () => {
    const response = await get('/login', 'partner-language=ar; partner-color-mode=dark');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toBe(page('ar-dark'));
    expect(response.headers['vary']).toMatch(/cookie/i);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect((await get('/login', 'partner-language=en; partner-color-mode=light')).body).toBe(page('en-light'));
  });

  it('sends French and light without the cookies or with values it does not know', async () => {
    expect((await get('/login')).body).toBe(page('fr-light'));
    expect((await get('/login', 'partner-language=de; partner-color-mode=sepia')).body).toBe(page('fr-light'));
    expect((await get('/login', 'partner-color-mode=dark')).body).toBe(page('fr-dark'));
  });

  it('sends the plain shell for an address with a query, which may change what the page shows', async () => {
    expect((await get('/login?next=%2Fprofile', 'partner-language=ar')).body).toBe(SHELL);
    expect((await get('/login?', 'partner-language=ar')).body).toBe(page('ar-light'));
  });

  it('sends the plain shell for a page not prerendered, or one missing from the build', async () => {
    expect((await get('/reset-password', 'partner-language=ar')).body).toBe(SHELL);
    await fs.rm(path.join(distDir, prerenderedFile('/login', { locale: 'en', mode: 'dark' })!));
    expect((await get('/login', 'partner-language=en; partner-color-mode=dark')).body).toBe(SHELL);
  });
});
