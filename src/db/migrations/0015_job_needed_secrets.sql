CREATE TABLE `route_secrets` (
	`method` text NOT NULL,
	`path` text NOT NULL,
	`name` text NOT NULL,
	`ciphertext` blob NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`method`, `path`, `name`)
);
--> statement-breakpoint
ALTER TABLE `jobs` ADD `needed_secrets` text DEFAULT '[]' NOT NULL;