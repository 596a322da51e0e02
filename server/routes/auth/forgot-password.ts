import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { forgotPasswordPayload, responseSchemas } from '../../../contract/server';
import type { Config } from '../../config';
import { success } from '../../http/reply';
import type { ZodMiniTypeProvider } from '../../http/validation';
import { RESET_TOKEN_TTL_MS } from '../../services/tokens';
import { createPasswordReset, findPartnerByEmail, normaliseEmail } from '../../services/users';
import { resetLink, resetMail } from './reset-mail';

const WINDOW_MS = 60 * 60 * 1000;

/** Resolves on a later turn of the event loop, once the answer has been written to the socket. */
const afterAnswer = () => new Promise<void>((resolve) => setImmediate(resolve));

async function sendResetLink(app: FastifyInstance, config: Config, account: { id: string; email: string }) {
  const now = app.clock();
  const resetId = await createPasswordReset(app.db, account.id, now, new Date(now.getTime() + RESET_TOKEN_TTL_MS));
  const token = await app.tokens.issueReset({ sub: account.id, jti: resetId });
  await app.sendMail(resetMail(account.email, resetLink(config.appUrl, token)));
}

/**
 * POST /forgot-password: always the same 200, whether or not the email belongs to a partner.
 * The answer's timing must not tell either: both cases do the same work on the response path (the
 * limits and one indexed lookup), and what only a real account needs (a reset row, a token, the
 * mail, which over SMTP takes seconds) runs after the answer is sent. Its failures are logged.
 */
export const forgotPasswordRoute: FastifyPluginAsync<{ config: Config }> = async (instance, { config }) => {
  const app = instance.withTypeProvider<ZodMiniTypeProvider>();
  // Mails still being sent when the server stops are finished before the database closes.
  const pending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled(pending);
  });

  app.post(
    '/forgot-password',
    { schema: { body: forgotPasswordPayload, response: responseSchemas('POST auth /forgot-password') } },
    async (request, reply) => {
      const email = normaliseEmail(request.body.email);
      await app.enforceLimits([
        { key: `forgot-password:email:${email}`, max: 3, windowMs: WINDOW_MS },
        { key: `forgot-password:ip:${request.ip}`, max: 20, windowMs: WINDOW_MS },
      ]);
      const account = await findPartnerByEmail(app.db, email);
      if (account) {
        const task = afterAnswer()
          .then(() => sendResetLink(app, config, account))
          .catch((error: unknown) => {
            request.log.error({ err: error }, 'password reset mail could not be sent');
          });
        pending.add(task);
        void task.finally(() => pending.delete(task));
      }
      return success(reply, null);
    },
  );
};
