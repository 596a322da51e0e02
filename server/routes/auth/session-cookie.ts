/**
 * The refresh cookie and the sign-in answer shared by login, register and refresh.
 * The cookie is HttpOnly (scripts never see it), SameSite=Strict and scoped to /api/auth, so it is
 * sent only to refresh and logout; Secure whenever the portal is served over HTTPS.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthSession, User } from '../../../contract';
import type { Config } from '../../config';
import { unauthorized } from '../../http/errors';
import { coarseAddress, deviceLabel } from '../../services/device';
import { createSession, REMEMBER_ME_TTL_MS, type ClientDevice, type IssuedSession } from '../../services/sessions';
import { recordSignIn } from '../../services/sign-ins';
import { handoverGenerationOf, loadUser } from '../../services/users';

export const REFRESH_COOKIE = 'refresh_token';
export const REFRESH_COOKIE_PATH = '/api/auth';

/** The attributes of every cookie the auth routes set: the refresh cookie and the device cookie. */
export function cookieOptions(config: Config) {
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    path: REFRESH_COOKIE_PATH,
    secure: config.appUrl.startsWith('https:'),
  };
}

/** Without remember_me the cookie has no Max-Age: the browser drops it when it closes. */
export function setRefreshCookie(reply: FastifyReply, config: Config, session: IssuedSession): void {
  const maxAge = session.rememberMe ? { maxAge: Math.floor(REMEMBER_ME_TTL_MS / 1000) } : {};
  reply.setCookie(REFRESH_COOKIE, session.token, { ...cookieOptions(config), ...maxAge });
}

export function clearRefreshCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(REFRESH_COOKIE, cookieOptions(config));
}

export function readRefreshCookie(request: FastifyRequest): string | null {
  const value = request.cookies[REFRESH_COOKIE];
  return value ? value : null;
}

/**
 * Access token, user and the partner's hand-over key (docs/ARCHITECTURE.md#the-hand-over-file) for a
 * session just created or rotated; sets the cookie that goes with it.
 */
export async function sessionAnswer(
  app: FastifyInstance,
  reply: FastifyReply,
  config: Config,
  session: IssuedSession,
  user: User,
): Promise<AuthSession> {
  const access_token = await app.tokens.issueAccess({ sub: session.userId, sid: session.familyId });
  setRefreshCookie(reply, config, session);
  const generation = await handoverGenerationOf(app.db, user.id);
  return { access_token, user, handover_key: app.handoverKeyOf(user.id, generation) };
}

/** The calling device as the list of devices shows it: its User-Agent's label and its coarse address. */
export function clientDevice(request: FastifyRequest): ClientDevice {
  return { device: deviceLabel(request.headers['user-agent']), address: coarseAddress(request.ip) };
}

/**
 * Signs a user in: a new session family, its cookie and the answer. The sign-in is recorded with its
 * device (docs/API.md#get-sign-ins); one from a device the partner has not signed in from before is
 * logged with the partner's id, the device and the coarse address: never the email, password or tokens.
 */
export async function signIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  userId: string,
  rememberMe: boolean,
): Promise<AuthSession> {
  const user = await loadUser(app.db, userId);
  if (!user) throw unauthorized('session_expired');
  const now = app.clock();
  const client = clientDevice(request);
  const session = await createSession(app.db, { userId, rememberMe, now, ...client });
  const { newDevice } = await recordSignIn(app.db, userId, client, now);
  if (newDevice) {
    request.log.info(
      { partner_id: userId, device: client.device, address: client.address },
      'sign-in from a new device',
    );
  }
  return sessionAnswer(app, reply, config, session, user);
}

/**
 * Refresh and logout take no body, but an API client may still send `Content-Type: application/json`
 * with an empty one, which Fastify's JSON parser refuses. These routes ignore any body instead.
 */
export function ignoreJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, _body, done) => {
    done(null, undefined);
  });
}
