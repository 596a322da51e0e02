/**
 * The hand-over file's seal (docs/ARCHITECTURE.md#the-hand-over-file): HMAC-SHA256, by WebCrypto,
 * under the partner's hand-over key (the server hands it to each of their tablets at sign-in), over
 * the file's canonical form. A file changed after its export, or sealed under another key, fails the
 * check; without the key (a client knows only public data) no one can seal a changed file again.
 * Loaded with the hand-over module, on demand.
 */
import { canonicalJson } from '../../../contract/canonical-json';

/** WebCrypto's HMAC exists only in a secure context (https, or localhost). */
export function sealingAvailable(): boolean {
  return typeof globalThis.crypto?.subtle?.importKey === 'function';
}

/** Bytes from base64 (the hand-over key, a photo in the hand-over file). */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** Bytes as base64, in slices: String.fromCharCode takes its arguments on the stack (a photo is 200 KB). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}

function toBase64Url(bytes: ArrayBuffer): string {
  return toBase64(new Uint8Array(bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const SEAL_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function importKey(key: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', fromBase64Url(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

const canonicalBytes = (content: object) => new TextEncoder().encode(canonicalJson(content));

/** The seal of `content` (the file without its `seal` field) under the partner's key: 43 base64url characters. */
export async function sealOf(content: object, key: string): Promise<string> {
  return toBase64Url(await crypto.subtle.sign('HMAC', await importKey(key), canonicalBytes(content)));
}

/** Whether `seal` is content's seal under the key; compared by WebCrypto's verify, in constant time. */
export async function sealHolds(content: object, seal: unknown, key: string): Promise<boolean> {
  if (typeof seal !== 'string' || !SEAL_PATTERN.test(seal)) return false;
  return crypto.subtle.verify('HMAC', await importKey(key), fromBase64Url(seal), canonicalBytes(content));
}

/**
 * Names the key a file was sealed under, without telling anything of it: the start of a seal under it
 * over a fixed text. A file carries it, so one sealed under another key of the same partner (before a
 * password change or reset, docs/ARCHITECTURE.md#the-hand-over-file) is told from a changed one.
 */
export async function keyIdOf(key: string): Promise<string> {
  return (await sealOf({ purpose: 'hand-over key id' }, key)).slice(0, 16);
}
