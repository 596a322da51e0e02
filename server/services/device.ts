/**
 * How a signed-in device is shown to its partner (docs/API.md#sessions): a label read from its
 * User-Agent by ua-parser-js (version 1, MIT: version 2 is AGPL), and its network rather than its
 * address, so the list tells "the tablet at the garage" from "a phone elsewhere" without keeping
 * where exactly anyone was.
 */
import net from 'node:net';
import UAParser from 'ua-parser-js';

/** A User-Agent longer than this is cut before parsing: no browser sends one, and parsing is regexes. */
const USER_AGENT_MAX_LENGTH = 512;

const SEPARATOR = ' · ';

/** One name (a browser, a system, a device): a real one is a few words, never longer. */
const NAME_MAX_LENGTH = 40;
/** A whole label: three names and their separators. */
export const DEVICE_LABEL_MAX_LENGTH = 3 * NAME_MAX_LENGTH + 2 * SEPARATOR.length;

/**
 * A name as the User-Agent gave it, if it is one: letters, digits, spaces and the marks real names use
 * (SM-X200, Mobile Safari 17, iOS 17.5, Build/UP1A). A User-Agent is whatever
 * the client sends, and what the parser matched in it is shown to the partner: a "name" with markup,
 * quotes or the like in it is none, and is left out whole rather than shown cleaned.
 */
function cleanName(name: string): string {
  const trimmed = name.replace(/\s+/g, ' ').trim();
  return /[^\p{L}\p{N} ._+\-/()]/u.test(trimmed) ? '' : trimmed;
}

const joined = (...parts: (string | undefined)[]) =>
  parts
    .map((part) => cleanName(part ?? ''))
    .filter(Boolean)
    .join(' ')
    .slice(0, NAME_MAX_LENGTH)
    .trim();

/**
 * "Chrome 126 · Android 14 · Samsung SM-X200": the browser and its major version, the system and its
 * version, the device's maker and model, each left out when unknown; '' when nothing is known.
 */
export function deviceLabel(userAgent: string | undefined): string {
  if (!userAgent) return '';
  const { browser, os, device } = new UAParser(userAgent.slice(0, USER_AGENT_MAX_LENGTH)).getResult();
  // "Apple iPad", but not "Nokia Nokia 5.3" when the model already names its maker.
  const vendor = device.vendor && device.model?.startsWith(device.vendor) ? undefined : device.vendor;
  return [joined(browser.name, browser.major), joined(os.name, os.version), joined(vendor, device.model)]
    .filter(Boolean)
    .join(SEPARATOR);
}

/** The eight groups of an IPv6 address as numbers, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (net.isIPv6(address) === false) return null;
  let text = address;
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes its two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = v4[1].split('.').map(Number);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (side: string) => (side ? side.split(':').map((group) => parseInt(group, 16)) : []);
  const first = part(head);
  const last = tail === undefined ? [] : part(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/**
 * The address a request came from (Fastify's request.ip, which follows TRUST_PROXY), made coarse:
 * IPv4 to its /24 ("192.0.2.x"), IPv6 to its /48 ("2001:db8:85a3::/48"), an IPv4-mapped IPv6 address
 * as the IPv4 it carries. Null when it is neither.
 */
export function coarseAddress(ip: string | undefined): string | null {
  if (!ip) return null;
  const address = ip.split('%')[0] ?? '';
  if (net.isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.x`;
  const groups = ipv6Groups(address);
  if (!groups) return null;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return `${high >> 8}.${high & 255}.${low >> 8}.x`;
  }
  // The WHATWG URL parser writes an IPv6 address in its canonical (RFC 5952) form: 2001:db8::.
  const prefix = [...groups.slice(0, 3), 0, 0, 0, 0, 0].map((group) => group.toString(16)).join(':');
  return `${new URL(`http://[${prefix}]`).hostname.slice(1, -1)}/48`;
}
