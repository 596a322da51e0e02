/**
 * The device cookie (OWASP's "device cookies" against online guessing): a browser that signed in
 * as an email keeps a token saying so, signed with the server's keys (stateless, valid on every
 * instance), HttpOnly, SameSite=Strict, on /api/auth, Secure over HTTPS, for a year.
 *
 * Sign-in attempts that present a valid one for the email they try are counted per device and are
 * not held back by what strangers do to that email; attempts without one share the limits of
 * untrusted clients. So a stranger who hammers an email locks out strangers, not its owner.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { DEVICE_TOKEN_TTL_MS } from '../../services/tokens';
import { cookieOptions } from './session-cookie';

export const DEVICE_COOKIE = 'login_device';

/** Gives the browser a (new) device cookie for the email it just proved it holds the password of. */
export async function setDeviceCookie(
  app: FastifyInstance,
  reply: FastifyReply,
  config: Config,
  email: string,
): Promise<void> {
  const token = await app.tokens.issueDevice({ email, jti: crypto.randomUUID() });
  reply.setCookie(DEVICE_COOKIE, token, { ...cookieOptions(config), maxAge: Math.floor(DEVICE_TOKEN_TTL_MS / 1000) });
}

/** The id of the device when the request carries a valid device cookie for `email`, else null. */
export async function trustedDevice(
  app: FastifyInstance,
  request: FastifyRequest,
  email: string,
): Promise<string | null> {
  const token = request.cookies[DEVICE_COOKIE];
  if (!token) return null;
  const claims = await app.tokens.readDevice(token);
  return claims?.email === email ? claims.jti : null;
}
