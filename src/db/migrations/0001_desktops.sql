CREATE TABLE `desktops` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`platform` text NOT NULL,
	`driver` text NOT NULL,
	`status` text DEFAULT 'offline' NOT NULL,
	`agent_version` text,
	`credential_hash` blob NOT NULL,
	`last_seen_at` text,
	`created_at` text NOT NULL,
	`revoked_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `desktops_credential_hash_unique` ON `desktops` (`credential_hash`);--> statement-breakpoint
CREATE TABLE `enrollment_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`hash` blob NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`desktop_id` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `enrollment_tokens_hash_unique` ON `enrollment_tokens` (`hash`);--> statement-breakpoint
CREATE INDEX `enrollment_tokens_expires_at` ON `enrollment_tokens` (`expires_at`);