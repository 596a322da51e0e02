/** Conditional requests and Vary, as the photo route answers them (server/http). */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ifNoneMatchNames } from '../../../server/http/conditional';
import { varyOn } from '../../../server/http/reply';

describe('If-None-Match', () => {
  const etag = '"abc123"';

  it('names the entity tag strong or weak, alone or in a list, or as *', () => {
    for (const header of ['"abc123"', 'W/"abc123"', '"x", "abc123"', 'W/"x",W/"abc123"', ' * ']) {
      expect(ifNoneMatchNames(header, etag), header).toBe(true);
    }
  });

  it('does not name another tag, a tag without its quotes, or nothing', () => {
    for (const header of ['"abc12"', 'abc123', 'W/"x"', '', undefined]) {
      expect(ifNoneMatchNames(header, etag), String(header)).toBe(false);
    }
  });
});

describe('Vary', () => {
  it('adds a header once, keeping those already named', async () => {
    const app = Fastify();
    app.get('/', (_request, reply) => {
      reply.header('vary', 'Origin');
      varyOn(varyOn(reply, 'Authorization'), 'authorization');
      return 'ok';
    });
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.headers.vary).toBe('Origin, Authorization');
    await app.close();
  });
});
