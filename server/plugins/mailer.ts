/**
 * Outgoing mail: through SMTP when SMTP_URL is set; otherwise each message is written as an
 * .eml file under DATA_DIR/mail (and logged), so the reset flow works on one machine and in tests.
 */
import fp from 'fastify-plugin';
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The message's one link, printed in the log when mail goes to files (a machine without SMTP). */
  link?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    sendMail(mail: Mail): Promise<void>;
  }
}

const FROM = 'Portail Partenaire Garage <no-reply@garage-portal.dz>';

export const mailerPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    if (config.smtpUrl) {
      const transport = nodemailer.createTransport(config.smtpUrl);
      app.addHook('onClose', () => transport.close());
      app.decorate('sendMail', async (mail: Mail) => {
        const { link: _link, ...message } = mail;
        await transport.sendMail({ from: FROM, ...message });
      });
      return;
    }
    const mailDir = path.join(config.dataDir, 'mail');
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    app.decorate('sendMail', async (mail: Mail) => {
      const { link, ...message } = mail;
      const info = await transport.sendMail({ from: FROM, ...message });
      await fs.mkdir(mailDir, { recursive: true });
      // Time first so a directory listing reads in order; random suffix so two at once never collide.
      const file = path.join(mailDir, `${Date.now()}-${crypto.randomBytes(4).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      // Without SMTP the link is printed so the reset flow works on one machine (docs/API.md#post-forgot-password).
      // Never in production, where a log line must not carry a usable token.
      const shownLink = config.nodeEnv === 'production' ? undefined : link;
      app.log.info({ file, subject: mail.subject, link: shownLink }, 'mail written to file (no SMTP_URL set)');
    });
  },
  { name: 'mailer' },
);
