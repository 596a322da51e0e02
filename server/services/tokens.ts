/**
 * Access tokens (15 minutes), password-reset tokens (30 minutes, single use) and device tokens (a
 * year, the login_device cookie), all PASETO v4.local. Each kind has its own key and implicit
 * assertion, so one can never pass for another.
 */
import { decrypt, encrypt } from 'paseto-ts/v4';
import type { TokenKeys } from './keys';

export const ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
export const DEVICE_TOKEN_TTL_MS = 365 * 24 * 60 * 60 * 1000;

export interface AccessClaims {
  sub: string;
  sid: string;
}

export interface ResetClaims {
  sub: string;
  jti: string;
}

/** A browser that signed in as `email`; `jti` names the device for its own rate limit. */
export interface DeviceClaims {
  email: string;
  jti: string;
}

export class Tokens {
  constructor(
    private readonly keys: TokenKeys,
    private readonly now: () => Date,
  ) {}

  private async issue(key: string, purpose: string, claims: object, ttlMs: number): Promise<string> {
    const issuedAt = this.now();
    return encrypt(
      key,
      { ...claims, iat: issuedAt.toISOString(), exp: new Date(issuedAt.getTime() + ttlMs).toISOString() },
      // Claims are checked against our clock (below), not the library's wall clock, so tests can move time.
      { assertion: purpose, addExp: false, addIat: false, validatePayload: false },
    );
  }

  /** The claims when the token is genuine and unexpired by our clock, otherwise null. */
  private async read<T>(key: string, purpose: string, token: string): Promise<T | null> {
    try {
      // The library would check iat and exp against the wall clock; ours alone decides, so tests can move time.
      const { payload } = await decrypt<T & { exp: string }>(key, token, {
        assertion: purpose,
        validatePayload: false,
      });
      if (!(new Date(payload.exp).getTime() > this.now().getTime())) return null;
      return payload;
    } catch {
      return null;
    }
  }

  issueAccess(claims: AccessClaims) {
    return this.issue(this.keys.access, 'access', claims, ACCESS_TOKEN_TTL_MS);
  }

  readAccess(token: string) {
    return this.read<AccessClaims>(this.keys.access, 'access', token);
  }

  issueReset(claims: ResetClaims) {
    return this.issue(this.keys.reset, 'reset', claims, RESET_TOKEN_TTL_MS);
  }

  readReset(token: string) {
    return this.read<ResetClaims>(this.keys.reset, 'reset', token);
  }

  issueDevice(claims: DeviceClaims) {
    return this.issue(this.keys.device, 'device', claims, DEVICE_TOKEN_TTL_MS);
  }

  readDevice(token: string) {
    return this.read<DeviceClaims>(this.keys.device, 'device', token);
  }
}
