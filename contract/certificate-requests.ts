/**
 * The requests of the certificates' routes (docs/API.md#mileage-certificates), checked by the server only:
 * kept out of contract/index.ts, so the PWA's first load does not carry them. The PWA's one body is
 * `{owner_consent: true}` (CertificateIssueBody, a type).
 */
import * as z from 'zod/mini';
import { CERTIFICATE_ID_PATTERN } from './certificate';
import type { ErrorCode } from './codes';
import { CERTIFICATES_PAGE_MAX } from './rules';
import { isoTimestamp, pageLimit } from './schemas';

const code = (error: ErrorCode) => ({ error });

/**
 * POST /vehicles/{kode_id}/certificates: the garage confirms that the vehicle's owner asked for the
 * certificate, and so agreed to what it discloses (docs/PRODUCT.md#mileage-certificate).
 */
export const certificateIssueBody = z.object(
  {
    owner_consent: z
      .literal(true, code('owner_consent_required'))
      .check(z.describe("Required, true: the vehicle's owner asked for the certificate.")),
  },
  code('owner_consent_required'),
);
export type CertificateIssueBody = z.input<typeof certificateIssueBody>;

/**
 * A certificate named in a path. Any text: an id typed from paper may be in lower case or without its
 * dashes (normaliseCertificateId), and one that cannot be an id is answered as an unknown one, 404.
 */
export const certificateParams = z.object({
  id: z.string(code('invalid_request')).check(z.describe('The certificate id, such as `7K3M-9QXD-2F8R-TN4W`.')),
});

/** GET /certificates: newest first, paged by the last item's issued_at and id. */
export const listCertificatesQuery = z.object({
  limit: pageLimit(CERTIFICATES_PAGE_MAX),
  before: z.optional(isoTimestamp('invalid_request', 'date_out_of_range')),
  /** With `before`: the id of the last item, so certificates sharing its issued_at are not skipped. */
  before_id: z.optional(
    z.string(code('invalid_request')).check(z.regex(CERTIFICATE_ID_PATTERN, code('invalid_request'))),
  ),
});
