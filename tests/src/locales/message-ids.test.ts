// @vitest-environment node
/**
 * The build compiles Lingui macros with SWC; the catalogs are extracted and compiled by Lingui's
 * own tools. Both must hash a message to the same id, or the page shows ids instead of words
 * (this happened with an SWC plugin made for another Lingui major). These messages hash to ids
 * containing '/' — the characters where the two schemes part.
 */
import { transform } from '@swc/core';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import { describe, expect, it } from 'vitest';

const MESSAGES = ['Marque', 'Mot de passe oublié ?', 'VIN', 'Tableau de bord – Partenaire Garage'];

async function compiledIds(message: string): Promise<string[]> {
  const source = `import { t } from '@lingui/core/macro';\nexport const label = t\`${message}\`;\n`;
  const output = await transform(source, {
    filename: 'message.ts',
    jsc: {
      parser: { syntax: 'typescript' },
      target: 'es2022',
      experimental: { plugins: [['@lingui/swc-plugin', {}]] },
    },
  });
  return [...output.code.matchAll(/id: ?["'`]([^"'`]+)["'`]/g)].map((match) => match[1] ?? '');
}

describe('message ids', () => {
  it.each(MESSAGES)('are the same in the build and in the catalogs for "%s"', async (message) => {
    expect(await compiledIds(message)).toEqual([generateMessageId(message)]);
  });

  it('include ids where the two base64 alphabets differ', () => {
    expect(MESSAGES.map((message) => generateMessageId(message)).some((id) => /[/+]/.test(id))).toBe(true);
  });
});
