/**
 * How a device is shown in the partner's list (server/services/device.ts): a label read from its
 * User-Agent by ua-parser-js, and the network it called from rather than its address.
 */
import { describe, expect, it } from 'vitest';
import { coarseAddress, DEVICE_LABEL_MAX_LENGTH, deviceLabel } from '../../../server/services/device';

describe('deviceLabel', () => {
  it.each([
    [
      'a Samsung Galaxy Tab A8 in Chrome',
      'Mozilla/5.0 (Linux; Android 14; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Safari/537.36',
      'Chrome 126 · Android 14 · Samsung SM-X200',
    ],
    [
      'an iPad in Safari',
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Mobile Safari 17 · iOS 17.5 · Apple iPad',
    ],
    [
      'a Windows desktop in Firefox (no device)',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
      'Firefox 128 · Windows 10',
    ],
  ])('names %s', (_label, userAgent, label) => {
    expect(deviceLabel(userAgent)).toBe(label);
  });

  it.each([undefined, '', 'curl/8.5.0', 'lightMyRequest'])('is empty when nothing can be told from %j', (userAgent) => {
    expect(deviceLabel(userAgent)).toBe('');
  });

  it.each([
    'Mozilla/5.0 (Linux; Android 14; <img src=x onerror=alert(1)>) AppleWebKit/537.36 Chrome/126.0 Safari/537.36',
    'Mozilla/5.0 (Linux; Android 14; SM-X200"><script>alert(1)</script>) Chrome/126.0 Safari/537.36',
    '<svg onload=alert(1)>/1.0 (Linux; Android 14; Build/"\'&) Chrome/126.0',
  ])('keeps nothing of markup a User-Agent carries: %s', (userAgent) => {
    const label = deviceLabel(userAgent);
    expect(label).toMatch(/Android 14/);
    expect(label).not.toMatch(/[<>"'&=]/);
    expect(label).not.toMatch(/onerror|onload|script/i);
  });

  it('keeps each name short, however long the User-Agent makes it', () => {
    const label = deviceLabel(`Mozilla/5.0 (Linux; Android 14; ${'Model'.repeat(60)}) Chrome/126.0 Safari/537.36`);
    expect(label.length).toBeLessThanOrEqual(DEVICE_LABEL_MAX_LENGTH);
    for (const part of label.split(' · ')) expect(part.length).toBeLessThanOrEqual(40);
  });

  it('reads only the start of an overlong User-Agent', () => {
    const label = deviceLabel(`Mozilla/5.0 (Linux; Android 14; SM-X200) Chrome/126.0.1.2 ${'x'.repeat(100_000)}`);
    expect(label).toContain('Android 14');
  });
});

describe('coarseAddress', () => {
  it.each([
    ['192.0.2.17', '192.0.2.x'],
    ['10.0.0.1', '10.0.0.x'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3::/48'],
    ['2001:db8::1', '2001:db8::/48'],
    ['2001:0DB8:0000:0001::', '2001:db8::/48'],
    ['fe80::1%eth0', 'fe80::/48'],
    ['::1', '::/48'],
    ['::ffff:192.0.2.44', '192.0.2.x'],
  ])('makes %s into %s', (ip, coarse) => {
    expect(coarseAddress(ip)).toBe(coarse);
  });

  it.each([undefined, '', 'not-an-address', '999.1.1.1'])('is null for %j', (ip) => {
    expect(coarseAddress(ip)).toBeNull();
  });
});
