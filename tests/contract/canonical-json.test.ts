import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../contract/canonical-json';

describe('canonicalJson (RFC 8785)', () => {
  it('sorts every object’s keys, keeps arrays in order, writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 'é"' }, null, true], e: { z: [], y: {} } })).toBe(
      '{"a":[{"c":"é\\"","d":2},null,true],"b":1,"e":{"y":{},"z":[]}}',
    );
  });

  it('writes numbers and strings as the RFC’s example of section 3.2.2 does', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    ) as unknown;
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('orders keys by UTF-16 code units, as the RFC’s section 3.2.3 does', () => {
    const keys = ['\u20ac', '\r', '\ufb33', '1', '\ud83d\ude00', '\u0080', '\u00f6'];
    const sorted = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    const text = canonicalJson(Object.fromEntries(keys.map((key) => [key, key.length])));
    expect(text).toBe(`{${sorted.map((key) => `${JSON.stringify(key)}:${key.length}`).join(',')}}`);
  });

  it('leaves out object fields that are undefined, and refuses a value with no JSON form', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});
