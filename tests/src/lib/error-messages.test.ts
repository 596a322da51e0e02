import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, type ApiFailure } from '../../../contract';
import { apiFailureMessage, ERROR_MESSAGES, errorMessage, fieldErrorMessages } from '../../../src/lib/error-messages';
import { activateLocale, i18n } from '../../../src/lib/i18n';

beforeAll(() => activateLocale('fr'));

const failure = (code: number, error: Partial<ApiFailure['error']>): ApiFailure => ({
  code,
  status: 'error',
  error: { type: 'validation', message: '', ...error },
});

describe('error messages', () => {
  it('words every ErrorCode of the contract, each differently', () => {
    expect(Object.keys(ERROR_MESSAGES).sort()).toEqual([...ERROR_CODES].sort());
    const words = ERROR_CODES.map((code) => errorMessage(i18n, code));
    for (const [index, text] of words.entries()) {
      expect(text, ERROR_CODES[index]).not.toBe('');
      expect(text, ERROR_CODES[index]).not.toBe(ERROR_CODES[index]);
    }
    expect(new Set(words).size).toBe(words.length);
  });

  it('quotes the French texts of the validation rules and the mismatch message', () => {
    expect(errorMessage(i18n, 'kode_id_invalid')).toBe('Veuillez saisir un KODE ID valide');
    expect(errorMessage(i18n, 'odometer_invalid')).toBe('Veuillez saisir un kilometrage valide');
    expect(errorMessage(i18n, 'repair_type_required')).toBe('Veuillez choisir un type de panne');
    expect(errorMessage(i18n, 'consent_required')).toBe('Veuillez confirmer les informations avant de soumettre');
    expect(errorMessage(i18n, 'passwords_mismatch')).toBe('Les mots de passe ne correspondent pas');
    expect(ERROR_MESSAGES.passwords_mismatch.id).toBe('passwords_mismatch');
  });

  it('turns a fieldErrors result into words per field', () => {
    expect(fieldErrorMessages(i18n, { email: 'email_invalid', phone_number: 'phone_invalid' })).toEqual({
      email: 'Adresse e-mail invalide',
      phone_number: 'Numéro de téléphone invalide (0 suivi de 8 à 10 chiffres)',
    });
  });

  it("prefers the server's message, then its reason, then operation_failed; network gets its own words", () => {
    expect(apiFailureMessage(i18n, failure(400, { message: 'Message du serveur' }))).toBe('Message du serveur');
    expect(apiFailureMessage(i18n, failure(404, { reason: 'vehicle_not_found' }))).toBe(
      'Aucun véhicule ne correspond à ce KODE ID',
    );
    expect(apiFailureMessage(i18n, failure(500, {}))).toBe('Opération échouée');
    expect(apiFailureMessage(i18n, failure(0, { message: 'Failed to fetch', reason: 'network' }))).toBe(
      'Serveur injoignable : vérifiez la connexion et réessayez',
    );
  });
});
