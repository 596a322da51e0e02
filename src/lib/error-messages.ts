/**
 * Words for every contract ErrorCode (contract/codes.ts), in one place, through Lingui.
 * Forms validate with the contract schemas, which answer with codes; this turns them into text in
 * the active language. Each message's id is its code: the server reads the same catalog entries
 * for its own answers (server/i18n/messages.ts), so a rule checked on either side reads the same
 * in every language (docs/API.md#error-reasons). Keep the id equal to the code.
 */
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { isErrorCode, type ApiFailure, type ErrorCode } from '../../contract';
import { REFUSAL_WORDS } from './entries/refusals';

export const ERROR_MESSAGES: Record<ErrorCode, MessageDescriptor> = {
  // The refusals an entry meets once sent are worded by the entries module, beside what each one does.
  ...REFUSAL_WORDS,
  kode_id_invalid: msg({ id: 'kode_id_invalid', message: 'Veuillez saisir un KODE ID valide' }),
  odometer_invalid: msg({ id: 'odometer_invalid', message: 'Veuillez saisir un kilometrage valide' }),
  repair_type_required: msg({ id: 'repair_type_required', message: 'Veuillez choisir un type de panne' }),
  consent_required: msg({ id: 'consent_required', message: 'Veuillez confirmer les informations avant de soumettre' }),
  recorded_at_invalid: msg({ id: 'recorded_at_invalid', message: "La date de saisie n'est pas valide" }),
  recorded_at_out_of_range: msg({
    id: 'recorded_at_out_of_range',
    message: 'La date de saisie est trop ancienne ou dans le futur',
  }),
  date_out_of_range: msg({ id: 'date_out_of_range', message: 'La date doit être comprise entre 2000 et 2099' }),
  note_too_long: msg({ id: 'note_too_long', message: 'La note est trop longue (1000 caractères au plus)' }),
  vehicle_field_invalid: msg({
    id: 'vehicle_field_invalid',
    message: 'Les informations du véhicule ne sont pas valides',
  }),
  email_invalid: msg({ id: 'email_invalid', message: 'Adresse e-mail invalide' }),
  email_required: msg({ id: 'email_required', message: "L'adresse e-mail est requise" }),
  password_required: msg({ id: 'password_required', message: 'Le mot de passe est requis' }),
  password_too_short: msg({ id: 'password_too_short', message: 'Le mot de passe doit contenir au moins 8 caractères' }),
  password_too_long: msg({
    id: 'password_too_long',
    message: 'Le mot de passe est trop long (128 caractères au plus)',
  }),
  passwords_mismatch: msg({ id: 'passwords_mismatch', message: 'Les mots de passe ne correspondent pas' }),
  full_name_required: msg({ id: 'full_name_required', message: 'Le nom complet est requis' }),
  phone_invalid: msg({ id: 'phone_invalid', message: 'Numéro de téléphone invalide (0 suivi de 8 à 10 chiffres)' }),
  location_invalid: msg({ id: 'location_invalid', message: 'Localisation invalide' }),
  privacy_required: msg({ id: 'privacy_required', message: 'Vous devez accepter les conditions de confidentialité' }),
  token_invalid: msg({ id: 'token_invalid', message: 'Lien de réinitialisation invalide ou expiré' }),
  current_password_required: msg({
    id: 'current_password_required',
    message: 'Le mot de passe actuel est requis pour changer le mot de passe ou l’e-mail',
  }),
  current_password_wrong: msg({ id: 'current_password_wrong', message: 'Le mot de passe actuel est incorrect' }),
  invalid_credentials: msg({ id: 'invalid_credentials', message: 'E-mail ou mot de passe incorrect' }),
  email_taken: msg({ id: 'email_taken', message: 'Impossible de créer un compte avec cette adresse e-mail' }),
  session_expired: msg({ id: 'session_expired', message: 'Votre session a expiré, veuillez vous reconnecter' }),
  // Also the words /login shows after a remote sign-out (src/lib/session.ts).
  session_revoked: msg({ id: 'session_revoked', message: 'Cet appareil a été déconnecté depuis un autre appareil' }),
  session_not_found: msg({ id: 'session_not_found', message: 'Appareil déjà déconnecté' }),
  unauthorized: msg({ id: 'unauthorized', message: 'Authentification requise' }),
  forbidden_origin: msg({ id: 'forbidden_origin', message: 'Origine non autorisée' }),
  vehicle_not_found: msg({ id: 'vehicle_not_found', message: 'Aucun véhicule ne correspond à ce KODE ID' }),
  correction_invalid: msg({
    id: 'correction_invalid',
    message: 'Une correction doit indiquer la saisie corrigée et un motif valide',
  }),
  photo_exists: msg({
    id: 'photo_exists',
    message: 'Cette saisie a déjà une autre photo ; une nouvelle photo accompagne une correction',
  }),
  photo_invalid: msg({
    id: 'photo_invalid',
    message: 'La photo doit être une image WebP ou JPEG de 1600 pixels au plus de côté',
  }),
  owner_consent_required: msg({
    id: 'owner_consent_required',
    message: 'Confirmez que le propriétaire a demandé le certificat',
  }),
  certificate_no_readings: msg({
    id: 'certificate_no_readings',
    message: 'Aucun relevé pour ce véhicule : pas de certificat',
  }),
  certificate_not_found: msg({
    id: 'certificate_not_found',
    message: 'Certificat introuvable',
  }),
  idempotency_key_invalid: msg({
    id: 'idempotency_key_invalid',
    message: "L'en-tête Idempotency-Key doit être un UUID",
  }),
  rate_limited: msg({ id: 'rate_limited', message: 'Trop de tentatives, veuillez réessayer plus tard' }),
  not_found: msg({ id: 'not_found', message: 'Ressource introuvable' }),
  method_not_allowed: msg({ id: 'method_not_allowed', message: 'Méthode non autorisée' }),
  malformed_json: msg({ id: 'malformed_json', message: 'Le corps de la requête n’est pas un JSON valide' }),
  body_too_large: msg({ id: 'body_too_large', message: 'Requête trop volumineuse' }),
  unsupported_media_type: msg({
    id: 'unsupported_media_type',
    message: 'Type de contenu non pris en charge (application/json attendu)',
  }),
  invalid_request: msg({ id: 'invalid_request', message: 'Requête invalide' }),
  internal: msg({ id: 'internal', message: 'Une erreur interne est survenue, veuillez réessayer' }),
  invalid_characters: msg({ id: 'invalid_characters', message: 'Ce champ contient des caractères non autorisés' }),
  headers_too_large: msg({ id: 'headers_too_large', message: 'En-têtes de la requête trop volumineux' }),
  request_timeout: msg({ id: 'request_timeout', message: 'La requête a pris trop de temps, veuillez réessayer' }),
  unavailable: msg({ id: 'unavailable', message: 'Le service est momentanément indisponible, veuillez réessayer' }),
};

const NETWORK_MESSAGE = msg`Serveur injoignable : vérifiez la connexion et réessayez`;
/** Shared by every screen that reports a failure without a server message. */
export const OPERATION_FAILED = msg({ id: 'operation_failed', message: 'Opération échouée' });
/** Its counterpart, the title of every success toast that needs no other words. */
export const OPERATION_SUCCEEDED = msg({ id: 'success', message: 'Opération réussie' });

/** The words for one ErrorCode in the active language. */
export function errorMessage(i18n: I18n, code: ErrorCode): string {
  return i18n._(ERROR_MESSAGES[code]);
}

/** Field-by-field words for the result of contract `fieldErrors(schema, value)`. */
export function fieldErrorMessages<K extends string>(
  i18n: I18n,
  errors: Partial<Record<K, ErrorCode>>,
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [field, code] of Object.entries(errors) as [K, ErrorCode | undefined][]) {
    if (code) out[field] = errorMessage(i18n, code);
  }
  return out;
}

/**
 * What to tell the user about a failed API call: the server's own message (it is already in the
 * user's language), words of our own when the server was not reached (code 0) or said nothing.
 */
export function apiFailureMessage(i18n: I18n, failure: ApiFailure): string {
  if (failure.code === 0) return i18n._(NETWORK_MESSAGE);
  const message = failure.error?.message?.trim();
  if (message) return message;
  if (isErrorCode(failure.error?.reason)) return errorMessage(i18n, failure.error.reason);
  return i18n._(OPERATION_FAILED);
}

/** The server's per-field messages of a validation failure (already in the user's language). */
export function apiFieldErrors(failure: ApiFailure): Record<string, string> {
  return { ...(failure.error?.fields ?? {}) };
}
