CREATE TABLE "certificate_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"first_used_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" uuid NOT NULL,
	"kode_id" text NOT NULL,
	"payload" text NOT NULL,
	"signature" text NOT NULL,
	"kid" text NOT NULL,
	"readings_count" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_kode_id_vehicles_kode_id_fk" FOREIGN KEY ("kode_id") REFERENCES "public"."vehicles"("kode_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_kid_certificate_keys_kid_fk" FOREIGN KEY ("kid") REFERENCES "public"."certificate_keys"("kid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificates_partner_issued_idx" ON "certificates" USING btree ("partner_id","issued_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "certificates_partner_vehicle_idx" ON "certificates" USING btree ("partner_id","kode_id","issued_at" DESC NULLS LAST);