import { afterEach, describe, expect, it } from 'vitest';
import { hostSlowness, scaled, slownessOf, SLOWNESS_ENV } from './host-speed';

describe('time budgets that follow the host', () => {
  const measured = process.env[SLOWNESS_ENV];
  afterEach(() => {
    process.env[SLOWNESS_ENV] = measured;
  });

  it('keeps the budgets on the reference host and on a faster one', () => {
    expect(slownessOf(13, 2)).toBe(1);
    expect(slownessOf(6, 2)).toBe(1);
    expect(slownessOf(6, 8)).toBe(1);
  });

  it('gives a slower core, or fewer cores, proportionally more time, up to six times', () => {
    expect(slownessOf(26, 2)).toBe(2);
    expect(slownessOf(13, 1)).toBe(2);
    expect(slownessOf(19.5, 1)).toBe(3);
    expect(slownessOf(200, 1)).toBe(6);
  });

  it('scales a budget by the factor the run measured, and by nothing without one', () => {
    process.env[SLOWNESS_ENV] = '2.5';
    expect(scaled(120_000)).toBe(300_000);
    for (const unusable of ['', 'fast', '0.5']) {
      process.env[SLOWNESS_ENV] = unusable;
      expect(hostSlowness()).toBe(1);
      expect(scaled(10_000)).toBe(10_000);
    }
  });
});
