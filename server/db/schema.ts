/**
 * The database schema, one for PGlite and PostgreSQL alike (PostgreSQL 15 features only).
 * Migrations are generated from it by drizzle-kit into ./migrations.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { CorrectionReason, PhotoType, ReadingReason, ReadingVerdictCode } from '../../contract';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull(),
    full_name: text('full_name').notNull(),
    password_hash: text('password_hash').notNull(),
    picture: text('picture'),
    role: text('role').notNull().default('partner'),
    /** Bumped when the password changes, so older reset links stop working. */
    password_changed_at: timestamp('password_changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * Which hand-over key the partner's tablets seal with (services/keys.ts#handoverKeyFor): advanced by
     * every password change or reset, so whoever signed in before it can seal no file a tablet imports.
     */
    handover_generation: integer('handover_generation').notNull().default(0),
    ...timestamps,
  },
  (table) => [uniqueIndex('users_email_unique').on(table.email)],
);

export const partners = pgTable('partners', {
  user_id: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Digits only. */
  phone_number: text('phone_number').notNull(),
  latitude: doublePrecision('latitude').notNull(),
  longitude: doublePrecision('longitude').notNull(),
  address: text('address'),
  conditions_accepted_at: timestamp('conditions_accepted_at', { withTimezone: true, mode: 'date' }),
  ...timestamps,
});

/**
 * Refresh sessions. Each refresh rotates the token: a new row in the same family, the old one
 * marked rotated. Presenting a rotated token again revokes the whole family. The family is what a
 * partner sees as a signed-in device (docs/API.md#sessions); its id is the access token's `sid`.
 *
 * What the list of devices shows (device, signed_in_at, last_used_at, address) is kept on each row and
 * copied to the new row at every rotation, rather than read from the family's first row: a tablet used
 * every day rotates its family about 30 times a day, so the first row is hundreds of rows away, while
 * the family's newest row (rotated_at null) answers the list alone and is the only row the
 * once-a-minute touch of last_used_at writes.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    family_id: uuid('family_id').notNull(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the refresh token; the token itself is never stored. */
    token_hash: text('token_hash').notNull(),
    remember_me: boolean('remember_me').notNull().default(false),
    expires_at: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    rotated_at: timestamp('rotated_at', { withTimezone: true, mode: 'date' }),
    revoked_at: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The device that signed in, from its User-Agent (services/device.ts); '' when nothing could be told. */
    device: text('device').notNull().default(''),
    /** When the family began: the sign-in. */
    signed_in_at: timestamp('signed_in_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The last call made with the family, to the minute (at most one write a minute). */
    last_used_at: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The network of that call, coarse (services/device.ts): an IPv4 /24 or an IPv6 /48. */
    address: text('address'),
  },
  (table) => [
    uniqueIndex('sessions_token_hash_unique').on(table.token_hash),
    index('sessions_family_idx').on(table.family_id),
    index('sessions_user_idx').on(table.user_id),
  ],
);

/**
 * The partner's recent sign-ins (docs/API.md#get-sign-ins), with their device and coarse address, never a
 * password, token or email. Kept bounded: the newest SIGN_INS_KEPT of each partner (services/sign-ins.ts).
 */
export const signIns = pgTable(
  'sign_ins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    device: text('device').notNull(),
    address: text('address'),
    /** No sign-in kept before it had the same device label. */
    new_device: boolean('new_device').notNull(),
  },
  (table) => [index('sign_ins_user_at_idx').on(table.user_id, table.at.desc(), table.id.desc())],
);

/** Issued reset tokens, so each can be used once. */
export const passwordResets = pgTable('password_resets', {
  id: uuid('id').primaryKey().defaultRandom(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expires_at: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  used_at: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const vehicles = pgTable('vehicles', {
  /** Upper-cased, 10 characters. */
  kode_id: text('kode_id').primaryKey(),
  vin: text('vin').notNull(),
  brand: text('brand').notNull(),
  model: text('model').notNull(),
  year: integer('year').notNull(),
  ...timestamps,
});

export const repairTypes = pgTable('repair_types', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  name_ar: text('name_ar'),
  name_en: text('name_en'),
  sort_order: integer('sort_order').notNull().default(0),
});

export const repairs = pgTable(
  'repairs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kode_id: text('kode_id')
      .notNull()
      .references(() => vehicles.kode_id),
    repair_type_id: text('repair_type_id')
      .notNull()
      .references(() => repairTypes.id),
    odometer: integer('odometer').notNull(),
    note: text('note').notNull().default(''),
    /**
     * The verdict of the odometer rules (contract/readings.ts) over the vehicle's stored readings, kept
     * current: each new reading re-judges its vehicle's readings in the same transaction.
     */
    verdict: text('verdict').$type<ReadingVerdictCode>().notNull().default('no_verdict'),
    reasons: text('reasons')
      .array()
      .$type<ReadingReason[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The repair that corrects this one (docs/API.md#corrections): kept, out of the rules. */
    superseded_by: uuid('superseded_by').references((): AnyPgColumn => repairs.id),
    /** Set on a correcting repair: the one it corrects, and why. */
    corrects: uuid('corrects').references((): AnyPgColumn => repairs.id),
    correction_reason: text('correction_reason').$type<CorrectionReason>(),
    /**
     * On a correction: the created_at of the first repair of its chain (the one a chain of corrections
     * started from), from which the correction window runs (docs/API.md#corrections). Null on a repair
     * that corrects nothing: its window runs from its own created_at. Kept here so neither the window
     * check nor the history has to walk a chain.
     */
    original_created_at: timestamp('original_created_at', { withTimezone: true, mode: 'date' }),
    recorded_at: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull(),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    idempotency_key: uuid('idempotency_key').notNull(),
    /** SHA-256 of the canonical request body, to tell a replay from a different entry under the same key. */
    request_hash: text('request_hash').notNull(),
  },
  (table) => [
    uniqueIndex('repairs_partner_idempotency_unique').on(table.partner_id, table.idempotency_key),
    index('repairs_partner_recorded_idx').on(table.partner_id, table.recorded_at.desc(), table.id.desc()),
    index('repairs_vehicle_recorded_idx').on(table.kode_id, table.recorded_at.desc()),
    // One correction per repair: a second one racing the first fails here even without the vehicle lock.
    uniqueIndex('repairs_corrects_unique').on(table.corrects),
  ],
);

/** Bytes as PostgreSQL's bytea; drizzle has no column type of its own for it. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * The odometer's photo of a repair (docs/API.md#photos): one per repair, never replaced (a new photo
 * comes with a correction). In the database rather than on an instance's disk, so every instance
 * serves it and a backup of the database holds it; one INSERT stores it whole or not at all.
 */
export const repairPhotos = pgTable('repair_photos', {
  repair_id: uuid('repair_id')
    .primaryKey()
    .references(() => repairs.id, { onDelete: 'cascade' }),
  bytes: bytea('bytes').notNull(),
  type: text('type').$type<PhotoType>().notNull(),
  byte_size: integer('byte_size').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  /** Hex SHA-256 of the bytes: tells the same photo sent again from another, and is its ETag. */
  sha256: text('sha256').notNull(),
  created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Every public key that ever signed a mileage certificate (docs/API.md#mileage-certificates): the key
 * set serves them all, so a certificate signed before CERTIFICATE_KEY changed still verifies. A key is
 * written in the transaction of the first certificate it signs, so no certificate names a key that is
 * not published. Only the public key is kept: the private one is configuration, never stored here.
 */
export const certificateKeys = pgTable('certificate_keys', {
  /** The key's RFC 7638 thumbprint, its `kid`. */
  kid: text('kid').primaryKey(),
  /** The Ed25519 public key: its 32 bytes in base64url, the JWK's `x` (the other members are constants). */
  public_key: text('public_key').notNull(),
  first_used_at: timestamp('first_used_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Mileage certificates (docs/PRODUCT.md#mileage-certificate): what a garage signed for a vehicle's owner,
 * kept as signed so the public page answers it unchanged, and revocable by its garage.
 */
export const certificates = pgTable(
  'certificates',
  {
    /** The public id, `7K3M-9QXD-2F8R-TN4W` (contract/certificate.ts): 80 random bits. */
    id: text('id').primaryKey(),
    partner_id: uuid('partner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kode_id: text('kode_id')
      .notNull()
      .references(() => vehicles.kode_id),
    /**
     * The signed payload, as the very text signed: its RFC 8785 canonical JSON. Text rather than jsonb,
     * which would store a value of its own making (its key order, its numbers) rather than the bytes signed.
     */
    payload: text('payload').notNull(),
    /** Ed25519 over the payload's UTF-8 bytes, base64url. */
    signature: text('signature').notNull(),
    kid: text('kid')
      .notNull()
      .references(() => certificateKeys.kid),
    /** The payload's number of readings, for the garage's lists without reading each payload. */
    readings_count: integer('readings_count').notNull(),
    issued_at: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    valid_until: timestamp('valid_until', { withTimezone: true, mode: 'date' }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('certificates_partner_issued_idx').on(table.partner_id, table.issued_at.desc(), table.id.desc()),
    index('certificates_partner_vehicle_idx').on(table.partner_id, table.kode_id, table.issued_at.desc()),
  ],
);

/** Public settings documents (rich text), one row per key. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updated_at: timestamp('updated_at', { withTimezone: true, mode: 'date' })
    .notNull()
    .default(sql`now()`),
});
