ALTER TABLE "repairs" ADD COLUMN "verdict" text DEFAULT 'no_verdict' NOT NULL;--> statement-breakpoint
ALTER TABLE "repairs" ADD COLUMN "reasons" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "repairs" ADD COLUMN "superseded_by" uuid;--> statement-breakpoint
ALTER TABLE "repairs" ADD COLUMN "corrects" uuid;--> statement-breakpoint
ALTER TABLE "repairs" ADD COLUMN "correction_reason" text;--> statement-breakpoint
ALTER TABLE "repairs" ADD CONSTRAINT "repairs_superseded_by_repairs_id_fk" FOREIGN KEY ("superseded_by") REFERENCES "public"."repairs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repairs" ADD CONSTRAINT "repairs_corrects_repairs_id_fk" FOREIGN KEY ("corrects") REFERENCES "public"."repairs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "repairs_corrects_unique" ON "repairs" USING btree ("corrects");