CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`hash` blob NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text,
	`revoked_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE TABLE `builds` (
	`id` text PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`sample_id` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`question` text,
	`answers` text DEFAULT '[]' NOT NULL,
	`progress` text DEFAULT '[]' NOT NULL,
	`scenario` text,
	`desktop` text,
	`error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sample_id`) REFERENCES `samples`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `builds_job_id` ON `builds` (`job_id`);--> statement-breakpoint
CREATE TABLE `job_versions` (
	`job_id` text NOT NULL,
	`version` integer NOT NULL,
	`automation` text NOT NULL,
	`build_id` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`job_id`, `version`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`mode` text DEFAULT 'learning' NOT NULL,
	`prompt` text NOT NULL,
	`stability_score` real DEFAULT 0 NOT NULL,
	`live_version` integer,
	`draft_version` integer,
	`desktop_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_method_path` ON `jobs` (`method`,`path`);--> statement-breakpoint
CREATE TABLE `samples` (
	`id` text PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`input` text NOT NULL,
	`expect` text,
	`prompt` text,
	`scenario` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `samples_job_id` ON `samples` (`job_id`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text NOT NULL
);
