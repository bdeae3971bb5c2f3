CREATE TABLE "admin_direct_actions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"admin_id" uuid NOT NULL,
	"user_id" uuid,
	"usd_value" numeric(38, 8) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_approvals" DROP CONSTRAINT "admin_approvals_action_check";--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD COLUMN "effect" jsonb;--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD COLUMN "gate_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_direct_actions" ADD CONSTRAINT "admin_direct_actions_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_direct_actions" ADD CONSTRAINT "admin_direct_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_direct_actions_admin_idx" ON "admin_direct_actions" USING btree ("admin_id","created_at");--> statement-breakpoint
CREATE INDEX "admin_direct_actions_user_idx" ON "admin_direct_actions" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_action_check" CHECK ("admin_approvals"."action" in ('update-balance', 'deposit', 'modify-transaction', 'delete-trx', 'create-admin'));