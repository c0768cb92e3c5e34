ALTER TABLE `api_keys` ADD `scopes` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `jobs` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `rate_per_second` real;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `burst` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `replaced_by` text;