import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiFailure, ApiSuccess, Settings } from '../../../contract';
import { PARTNER_CONDITIONS, SHIPPED_BEFORE, type ConditionsKey } from '../../../server/db/conditions';
import { settings } from '../../../server/db/schema';
import { seedDatabase } from '../../../server/db/seed';
import { call, createTestApp, type TestApp } from '../../support/test-app';

const sha256 = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');
const KEYS = Object.keys(PARTNER_CONDITIONS) as ConditionsKey[];

describe('GET /api/public/settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const getSettings = async () => {
    const res = await call(t.app, 'GET', '/api/public/settings');
    expect(res.statusCode).toBe(200);
    const body = res.json<ApiSuccess<Settings>>();
    expect(body).toMatchObject({ code: 200, status: 'success' });
    return body.data;
  };
  const store = (key: ConditionsKey, value: string) =>
    t.app.db.update(settings).set({ value }).where(eq(settings.key, key));

  it('answers the seeded conditions in French, Arabic and English, without sign-in', async () => {
    expect(await getSettings()).toEqual(PARTNER_CONDITIONS);
  });

  it('holds real conditions: the law, the data, the rights and the partner’s obligations, in each language', () => {
    const { partner_conditions: fr, partner_conditions_ar: ar, partner_conditions_en: en } = PARTNER_CONDITIONS;
    expect(fr).toContain('loi n° 18-07 du 10 juin 2018');
    expect(ar).toContain('18-07');
    expect(en).toContain('Law No. 18-07 of 10 June 2018');
    for (const text of [fr, ar, en]) {
      const words = text
        .replace(/<[^>]+>/g, ' ')
        .split(/\s+/)
        .filter(Boolean).length;
      expect(words).toBeGreaterThan(300);
      expect(text).toMatch(/^<h2>/);
      expect(text).toContain('mailto:');
      // Only the simple tags the PWA's sanitiser keeps.
      const tags = new Set([...text.matchAll(/<\/?([a-z0-9]+)/g)].map((match) => match[1]));
      expect([...tags].every((tag) => ['h2', 'h3', 'p', 'ul', 'li', 'strong', 'a'].includes(tag ?? ''))).toBe(true);
    }
    for (const phrase of ['droit d’accès', 'droit de rectification', 'droit d’opposition', 'irréversible', 'KODE ID']) {
      expect(fr).toContain(phrase);
    }
    for (const phrase of ['right of access', 'right to rectification', 'right to object', 'irreversible', 'odometer']) {
      expect(en).toContain(phrase);
    }
    for (const phrase of ['حق الولوج', 'حق التصحيح', 'حق الاعتراض']) expect(ar).toContain(phrase);
  });

  it('answers what an operator stored', async () => {
    await store('partner_conditions_ar', '<p>نص معدّل</p>');
    expect((await getSettings()).partner_conditions_ar).toBe('<p>نص معدّل</p>');
    await seedDatabase(t.app.db, { demo: false });
    // The seed never overwrites an operator's text.
    expect((await getSettings()).partner_conditions_ar).toBe('<p>نص معدّل</p>');
  });

  it('upgrades a text an earlier release shipped, and only that', async () => {
    await store('partner_conditions', '<h2>Conditions</h2>');
    await store('partner_conditions_ar', '<h2>الشروط</h2>');
    await store('partner_conditions_en', '<h2>Conditions</h2><p>edited by the operator</p>');
    await seedDatabase(t.app.db, { demo: false });
    const data = await getSettings();
    expect(data.partner_conditions).toBe(PARTNER_CONDITIONS.partner_conditions);
    expect(data.partner_conditions_ar).toBe(PARTNER_CONDITIONS.partner_conditions_ar);
    expect(data.partner_conditions_en).toBe('<h2>Conditions</h2><p>edited by the operator</p>');
  });

  it('fills in a missing text at the next seed, and stands in for a missing French one meanwhile', async () => {
    await t.app.db.delete(settings);
    expect(await getSettings()).toEqual({
      partner_conditions: PARTNER_CONDITIONS.partner_conditions,
      partner_conditions_ar: null,
      partner_conditions_en: null,
    });
    await seedDatabase(t.app.db, { demo: false });
    expect(await getSettings()).toEqual(PARTNER_CONDITIONS);
  });

  it('lists the hashes of earlier texts, never of the current one', () => {
    for (const key of KEYS) {
      expect(SHIPPED_BEFORE[key]).not.toContain(sha256(PARTNER_CONDITIONS[key]));
      for (const hash of SHIPPED_BEFORE[key]) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('answers 404 in the envelope for an unknown public path', async () => {
    const res = await call(t.app, 'GET', '/api/public/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiFailure>()).toMatchObject({ code: 404, status: 'error', error: { type: 'not_found' } });
  });
});
