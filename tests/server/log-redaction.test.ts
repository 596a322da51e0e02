import { describe, expect, it } from 'vitest';
import { loggableError } from '../../server/plugins/envelope';

describe('what an unexpected error may put in the log', () => {
  it('drops the query parameters Drizzle puts into its message', () => {
    const error = new Error(
      'Failed query: update "users" set "email" = $1, "password_hash" = $2\nparams: garage@demo.dz,$argon2id$v=19$secret',
    );
    error.stack = `${error.message}\n    at handler (server/routes/partner/profile.ts:10:5)`;
    const logged = loggableError(error);
    expect(logged.message).not.toContain('garage@demo.dz');
    expect(logged.message).not.toContain('argon2id');
    expect(logged.message).toContain('Failed query');
    expect(logged.stack).not.toContain('garage@demo.dz');
    expect(logged.stack).toContain('at handler');
  });

  it('keeps an ordinary message whole', () => {
    expect(loggableError(new TypeError('x is not a function')).message).toBe('x is not a function');
  });
});
