CREATE TABLE `recordings` (
	`id` text PRIMARY KEY NOT NULL,
	`build_id` text NOT NULL,
	`desktop_id` text NOT NULL,
	`window_id` text NOT NULL,
	`status` text DEFAULT 'recording' NOT NULL,
	`started_by` text NOT NULL,
	`started_at` text NOT NULL,
	`ended_at` text,
	`window` text,
	`actions` text DEFAULT '[]' NOT NULL,
	`snapshots` text DEFAULT '[]' NOT NULL,
	`error` text,
	FOREIGN KEY (`build_id`) REFERENCES `builds`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `recordings_build_id` ON `recordings` (`build_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `recordings_active_desktop` ON `recordings` (`desktop_id`) WHERE "recordings"."status" = 'recording';--> statement-breakpoint
ALTER TABLE `builds` ADD `demonstrate` integer DEFAULT false NOT NULL;