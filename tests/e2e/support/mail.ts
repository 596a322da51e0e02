/** Just enough MIME to read the links out of the .eml files the portal writes when no SMTP is set. */

export function decodeQuotedPrintable(text: string): string {
  // Soft line breaks ("=" at the end of a line) join lines; =XX are bytes of UTF-8 text.
  const latin1 = text.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    return String.fromCharCode(parseInt(hex, 16));
  });
  return Buffer.from(latin1, 'latin1').toString('utf8');
}

function decodePart(part: string): string {
  const split = /\r?\n\r?\n/.exec(part);
  if (!split) return part;
  const headers = part.slice(0, split.index);
  const body = part.slice(split.index + split[0].length);
  const encoding = /^content-transfer-encoding:\s*([\w-]+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The decoded bodies of every part; a single-part mail is one part. */
export function mailBodies(eml: string): string[] {
  // Split on the declared boundaries only: a text body may well contain a line of dashes.
  const boundaries = [...eml.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((match) => escapeRegExp(match[1] ?? ''));
  if (boundaries.length === 0) return [decodePart(eml)];
  const delimiter = new RegExp(`^--(?:${boundaries.join('|')})(?:--)?[ \\t]*\\r?$`, 'm');
  return eml.split(delimiter).map(decodePart);
}

const RESET_LINK = /https?:\/\/[^\s"'<>]+\/reset-password\?token=[\w.~%-]+/;

export function resetLinkIn(eml: string): string | null {
  for (const body of mailBodies(eml)) {
    const match = RESET_LINK.exec(body);
    if (match) return match[0];
  }
  return null;
}
