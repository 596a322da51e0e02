import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { noStore } from '../../http/reply';
import { forgotPasswordRoute } from './forgot-password';
import { loginRoute } from './login';
import { logoutRoute } from './logout';
import { refreshRoute } from './refresh';
import { registerRoute } from './register';
import { resetPasswordRoute } from './reset-password';
import { sessionsRoutes } from './sessions';
import { signInsRoute } from './sign-ins';

/**
 * /api/auth: sign-in, registration, session refresh and logout, password reset (docs/API.md#auth-calls),
 * and the partner's signed-in devices and sign-ins (docs/API.md#sessions), which the access token opens.
 */
export const authRoutes: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  app.addHook('onSend', noStore);
  await app.register(loginRoute, { config });
  await app.register(registerRoute, { config });
  await app.register(refreshRoute, { config });
  await app.register(logoutRoute, { config });
  await app.register(forgotPasswordRoute, { config });
  await app.register(resetPasswordRoute, { config });
  await app.register(sessionsRoutes, { config });
  await app.register(signInsRoute);
};
