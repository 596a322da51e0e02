import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../contract';
import { call, createTestApp, type TestApp } from '../support/test-app';

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('GET /api/images/:file', () => {
  let t: TestApp;
  let imagesDir: string;
  beforeAll(async () => {
    t = await createTestApp();
    imagesDir = path.join(t.config.dataDir, 'images');
    await fs.mkdir(imagesDir, { recursive: true });
    await fs.writeFile(path.join(imagesDir, 'avatar_01.png'), PNG);
    await fs.writeFile(path.join(imagesDir, 'photo-2.jpg'), Buffer.from('fake jpeg bytes'));
    await fs.writeFile(path.join(imagesDir, 'photo-3.JPEG'), Buffer.from('fake jpeg bytes'));
    await fs.writeFile(path.join(imagesDir, 'pic.webp'), Buffer.from('fake webp bytes'));
    await fs.writeFile(path.join(imagesDir, `${'a'.repeat(100)}.jpeg`), Buffer.from('long name'));
    await fs.mkdir(path.join(imagesDir, 'folder.png'));
    // A secret next to the images folder, which no request may reach.
    await fs.writeFile(path.join(t.config.dataDir, 'secret.png'), Buffer.from('secret'));
  });
  afterAll(() => t.close());

  const get = (file: string) => t.app.inject({ method: 'GET', url: `/api/images/${file}` });

  it('serves a picture with its type, a day of caching and nosniff', async () => {
    const res = await get('avatar_01.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(res.headers['content-length'])).toBe(PNG.length);
    expect(res.rawPayload.equals(PNG)).toBe(true);
  });

  it.each([
    ['photo-2.jpg', 'image/jpeg'],
    ['pic.webp', 'image/webp'],
    [`${'a'.repeat(100)}.jpeg`, 'image/jpeg'],
  ])('serves %s as %s', async (file, type) => {
    const res = await get(file);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/api/images/avatar_01.png' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers 404 in the envelope for a missing picture or a folder', async () => {
    for (const file of ['missing.png', 'folder.png']) {
      const res = await get(file);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json<ApiFailure>()).toMatchObject({
        code: 404,
        status: 'error',
        error: { type: 'not_found', reason: 'not_found' },
      });
    }
  });

  it.each([
    '..%2Fsecret.png',
    '..%2fsecret.png',
    '%2e%2e%2fsecret.png',
    '%2E%2E%2Fsecret.png',
    '..%5Csecret.png',
    '%252e%252e%252fsecret.png',
    '..%252Fsecret.png',
    '.png',
    'avatar_01.png%00.png',
    'avatar 01.png',
    'avatar_01.PNG.exe',
    'avatar_01.svg',
    'avatar_01.html',
    'avatar_01',
    '.hidden.png',
    `${'a'.repeat(101)}.png`,
    'sub%2Favatar_01.png',
    'ĀĀĀ.png',
  ])('answers 400 for %s', async (file) => {
    const res = await get(file);
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiFailure>()).toMatchObject({ code: 400, status: 'error', error: { type: 'validation' } });
    expect(res.body).not.toContain('secret');
  });

  it('never leaves the images folder through path segments', async () => {
    for (const url of [
      '/api/images/../secret.png',
      '/api/images/../../secret.png',
      '/api/images/./../secret.png',
      '/api/images/sub/../../secret.png',
      '/api/images//secret.png',
      // URL parsing reads an encoded dot segment as a dot segment.
      '/api/images/%2e%2e',
      '/api/images/%2e%2e/secret.png',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).not.toContain('secret');
      expect(res.json<ApiFailure>().status).toBe('error');
    }
  });

  it('refuses an upper-case extension it does not know how to type', async () => {
    expect((await get('photo-3.JPEG')).statusCode).toBe(400);
  });

  it('answers 404 in the envelope without a file name', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/images/' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json<ApiFailure>().status).toBe('error');
  });

  it('needs no sign-in, as <img> tags send no token', async () => {
    const res = await call(t.app, 'GET', '/api/images/avatar_01.png');
    expect(res.statusCode).toBe(200);
  });
});
