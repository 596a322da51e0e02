/**
 * What the OpenAPI document (server/plugins/openapi.ts) says of each call that its route does not: its
 * summary, the section of docs/API.md that explains it, how it is authenticated, and the failures it
 * answers with their reasons. Its request and its answers are declared once, by its route's schemas.
 * Never imported by the PWA.
 */
import type { ErrorCode } from './codes';
import { PHOTO_MAX_BYTES, PHOTO_MAX_SIDE_PX, PHOTO_TYPES, PUBLIC_CERTIFICATE_LOOKUPS } from './rules';
import type { EndpointKey } from './endpoints';

/**
 * access_token: `Authorization: Bearer`; refresh_cookie: the refresh cookie and an allowed `X-Origin`;
 * origin: an allowed `X-Origin` only; none: anyone.
 */
export type Credentials = 'access_token' | 'refresh_cookie' | 'origin' | 'none';

export interface EndpointReference {
  summary: string;
  /** The anchor of docs/API.md that explains the call. */
  guide: string;
  credentials: Credentials;
  /** The failures particular to this call, by status; those every call shares are added (commonFailures). */
  failures: Partial<Record<number, readonly ErrorCode[]>>;
  /** An answer that is not the JSON envelope: its media types and what it holds. */
  content?: { mediaTypes: readonly string[]; description: string };
  /** A request body that is not JSON (a picture's bytes): its media types and what it holds. */
  upload?: { mediaTypes: readonly string[]; description: string };
  /** What a failure status means on this call beyond its reasons, said in the reference. */
  failureNotes?: Partial<Record<number, string>>;
}

/** The 503 of the calls that move a photo's bytes (docs/API.md#photo-traffic). */
const PHOTO_TRAFFIC_NOTE =
  "Also when too many photo transfers are under way, the caller's or the server's: ask again after Retry-After.";

const VALIDATION = ['invalid_request'] as const;
const RATE_LIMITED = { 429: ['rate_limited'] } as const;

export const API_REFERENCE: Record<EndpointKey, EndpointReference> = {
  'POST auth /login': {
    summary: 'Sign in',
    guide: 'post-login',
    credentials: 'none',
    failures: { 400: VALIDATION, 401: ['invalid_credentials'], ...RATE_LIMITED },
  },
  'POST auth /register/partner': {
    summary: 'Register a partner and sign them in',
    guide: 'post-registerpartner',
    credentials: 'none',
    failures: { 400: VALIDATION, 409: ['email_taken'], ...RATE_LIMITED },
  },
  'POST auth /refresh': {
    summary: 'Renew the session from the refresh cookie',
    guide: 'post-refresh',
    credentials: 'refresh_cookie',
    failures: { 401: ['session_expired', 'session_revoked'], 403: ['forbidden_origin'], ...RATE_LIMITED },
    failureNotes: {
      429: 'More than 120 refreshes of one session in a minute: the session and its cookie are kept; ask again after Retry-After.',
    },
  },
  'GET auth /logout/partner': {
    summary: 'Sign out (GET form)',
    guide: 'get-or-post-logoutpartner',
    credentials: 'origin',
    failures: { 403: ['forbidden_origin'] },
  },
  'POST auth /logout/partner': {
    summary: 'Sign out',
    guide: 'get-or-post-logoutpartner',
    credentials: 'origin',
    failures: { 403: ['forbidden_origin'] },
  },
  'POST auth /forgot-password': {
    summary: 'Mail a password reset link',
    guide: 'post-forgot-password',
    credentials: 'none',
    failures: { 400: VALIDATION, ...RATE_LIMITED },
  },
  'POST auth /reset-password': {
    summary: 'Set a new password with a reset link',
    guide: 'post-reset-password',
    credentials: 'none',
    failures: { 400: ['token_invalid', 'passwords_mismatch', 'invalid_request'], ...RATE_LIMITED },
  },
  'GET auth /sessions': {
    summary: "The partner's signed-in devices",
    guide: 'get-sessions',
    credentials: 'access_token',
    failures: {},
  },
  'DELETE auth /sessions/{id}': {
    summary: 'Sign one device out',
    guide: 'delete-sessionsid',
    credentials: 'access_token',
    failures: { 400: ['invalid_request'], 404: ['session_not_found'] },
  },
  'DELETE auth /sessions': {
    summary: 'Sign every other device out',
    guide: 'delete-sessionsotherstrue',
    credentials: 'access_token',
    failures: { 400: ['invalid_request'] },
  },
  'GET auth /sign-ins': {
    summary: "The partner's recent sign-ins",
    guide: 'get-sign-ins',
    credentials: 'access_token',
    failures: {},
  },
  'PATCH partner /profile': {
    summary: "Change the partner's profile",
    guide: 'patch-profile',
    credentials: 'access_token',
    failures: {
      400: ['current_password_required', 'current_password_wrong', 'invalid_request'],
      409: ['email_taken'],
      ...RATE_LIMITED,
    },
  },
  'GET partner /repair-types': {
    summary: 'The repair types',
    guide: 'get-repair-types',
    credentials: 'access_token',
    failures: {},
  },
  'GET partner /statistics': {
    summary: "The partner's totals",
    guide: 'get-statistics',
    credentials: 'access_token',
    failures: {},
  },
  'GET partner /repairs': {
    summary: "The partner's repairs, newest first",
    guide: 'get-repairs',
    credentials: 'access_token',
    failures: { 400: ['invalid_request', 'date_out_of_range'] },
  },
  'POST partner /repairs': {
    summary: 'Record a repair (or correct one), once per Idempotency-Key',
    guide: 'post-repairs',
    credentials: 'access_token',
    failures: {
      400: [
        'idempotency_key_invalid',
        'repair_type_not_found',
        'recorded_at_out_of_range',
        'correction_vehicle_changed',
        'correction_recorded_at_changed',
        'invalid_request',
      ],
      404: ['vehicle_not_found', 'repair_not_found'],
      409: ['already_corrected'],
      422: ['idempotency_conflict', 'correction_window_closed'],
    },
  },
  'PUT partner /repairs/{id}/photo': {
    summary: "Join the odometer's photo to a repair, once",
    guide: 'put-repairsidphoto',
    credentials: 'access_token',
    upload: {
      mediaTypes: PHOTO_TYPES,
      description:
        `The picture's bytes, at most ${PHOTO_MAX_BYTES / (1024 * 1024)} MB, at most ${PHOTO_MAX_SIDE_PX} pixels on ` +
        'its long side; its type is read from its bytes and must be the one declared, and it must decode whole. ' +
        'It is stored without its metadata (EXIF, XMP, comments).',
    },
    failures: {
      400: ['invalid_request'],
      404: ['repair_not_found'],
      409: ['photo_exists'],
      415: ['photo_invalid'],
    },
    failureNotes: { 503: PHOTO_TRAFFIC_NOTE },
  },
  'GET partner /repairs/{id}/photo': {
    summary: "A repair's odometer photo",
    guide: 'get-repairsidphoto',
    credentials: 'access_token',
    failures: { 400: ['invalid_request'], 404: ['not_found'] },
    failureNotes: { 503: PHOTO_TRAFFIC_NOTE },
    content: {
      mediaTypes: PHOTO_TYPES,
      description: "The picture's bytes, with its sha256 as ETag (304 to a matching If-None-Match).",
    },
  },
  'GET partner /vehicles/{kode_id}': {
    summary: 'A vehicle and its last reading',
    guide: 'get-vehicleskode_id',
    credentials: 'access_token',
    failures: { 400: ['kode_id_invalid'], 404: ['vehicle_not_found'] },
  },
  'GET partner /vehicles/{kode_id}/readings': {
    summary: "A vehicle's readings from every garage, newest first",
    guide: 'get-vehicleskode_idreadings',
    credentials: 'access_token',
    failures: { 400: ['kode_id_invalid'], 404: ['vehicle_not_found'] },
  },
  'POST partner /vehicles/{kode_id}/certificates': {
    summary: "Issue a signed mileage certificate of a vehicle, at its owner's request",
    guide: 'post-vehicleskode_idcertificates',
    credentials: 'access_token',
    failures: {
      400: ['kode_id_invalid', 'owner_consent_required'],
      404: ['vehicle_not_found'],
      422: ['certificate_no_readings'],
    },
  },
  'GET partner /vehicles/{kode_id}/certificates': {
    summary: 'The certificates the partner issued for a vehicle, newest first',
    guide: 'get-vehicleskode_idcertificates',
    credentials: 'access_token',
    failures: { 400: ['kode_id_invalid'], 404: ['vehicle_not_found'] },
  },
  'GET partner /certificates': {
    summary: 'The certificates the partner issued, newest first',
    guide: 'get-certificates',
    credentials: 'access_token',
    failures: { 400: ['invalid_request', 'date_out_of_range'] },
  },
  'DELETE partner /certificates/{id}': {
    summary: 'Revoke a certificate the partner issued',
    guide: 'delete-certificatesid',
    credentials: 'access_token',
    failures: { 404: ['certificate_not_found'] },
  },
  'GET public /settings': {
    summary: 'The partner conditions',
    guide: 'get-settings',
    credentials: 'none',
    failures: {},
  },
  'GET public /client-config': {
    summary: 'The map and geocoder providers',
    guide: 'get-client-config',
    credentials: 'none',
    failures: {},
  },
  'GET public /certificates/{id}': {
    summary: 'A certificate and its status, for anyone with its link',
    guide: 'get-certificatesid',
    credentials: 'none',
    failures: { 404: ['certificate_not_found'], ...RATE_LIMITED },
    failureNotes: { 429: `More than ${PUBLIC_CERTIFICATE_LOOKUPS.max} a minute from one client address.` },
  },
  'GET public /certificate-keys': {
    summary: 'The public keys that sign certificates, as a JSON Web Key Set',
    guide: 'get-certificate-keys',
    credentials: 'none',
    failures: {},
    content: {
      mediaTypes: ['application/jwk-set+json'],
      description:
        'A JSON Web Key Set (RFC 7517), not in the envelope: `{keys: [{kty: "OKP", crv: "Ed25519", x, kid, alg: ' +
        '"EdDSA", use: "sig"}]}`, the key that signs today first, then every key that signed before it. ' +
        "`kid` is the key's RFC 7638 thumbprint. Cacheable for an hour.",
    },
  },
  'GET images /{file}': {
    summary: 'A picture',
    guide: 'get-apiimagesfile',
    credentials: 'none',
    failures: { 400: ['invalid_request'], 404: ['not_found'] },
    content: { mediaTypes: ['image/png', 'image/jpeg', 'image/webp'], description: "The picture's bytes." },
  },
  'GET health /live': {
    summary: 'Liveness probe',
    guide: 'get-apihealthlive',
    credentials: 'none',
    failures: {},
  },
  'GET health /ready': {
    summary: 'Readiness probe',
    guide: 'get-apihealthready',
    credentials: 'none',
    failures: { 503: ['unavailable'] },
  },
  'GET api /openapi.json': {
    summary: 'This reference as an OpenAPI 3.1 document',
    guide: 'the-reference',
    credentials: 'none',
    failures: {},
    content: { mediaTypes: ['application/json'], description: 'The OpenAPI 3.1 document.' },
  },
};

/** What the failures every call may answer mean, said in the reference beside the call's own notes. */
export const COMMON_FAILURE_NOTES: Partial<Record<number, string>> = {
  503: 'The server is stopping, shedding load, or cannot reach its database: ask again, after Retry-After when it is given.',
};

/** The failures every call may answer besides its own, by status; `jsonBody` when its route reads a JSON body. */
export function commonFailures(key: EndpointKey, jsonBody: boolean): Partial<Record<number, readonly ErrorCode[]>> {
  const reference = API_REFERENCE[key];
  const failures: Partial<Record<number, readonly ErrorCode[]>> = {};
  if (jsonBody) failures[400] = ['malformed_json'];
  if (jsonBody || reference.upload) {
    failures[413] = ['body_too_large'];
    failures[415] = ['unsupported_media_type'];
  }
  if (reference.credentials === 'access_token') failures[401] = ['unauthorized', 'session_expired', 'session_revoked'];
  failures[500] = ['internal'];
  failures[503] = ['unavailable'];
  return failures;
}
