CREATE TABLE `execution_steps` (
	`execution_seq` integer NOT NULL,
	`execution_order` integer NOT NULL,
	`flow_name` text NOT NULL,
	`total_steps` integer NOT NULL,
	`status` text NOT NULL,
	`result` text,
	`error` text,
	`screenshot` text,
	`started_at` text NOT NULL,
	`finished_at` text,
	PRIMARY KEY(`execution_seq`, `execution_order`),
	FOREIGN KEY (`execution_seq`) REFERENCES `executions`(`seq`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `executions` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`job_id` text NOT NULL,
	`job_version` integer NOT NULL,
	`api_key_id` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`input` text NOT NULL,
	`callback_url` text,
	`desktop_id` text,
	`lease` text,
	`timeout_ms` integer NOT NULL,
	`result` text,
	`http_status` integer,
	`scenario` text,
	`error` text,
	`request_id` text NOT NULL,
	`base_url` text NOT NULL,
	`idempotency_key` text,
	`idempotency_fingerprint` text,
	`queued_at` text NOT NULL,
	`started_at` text,
	`finished_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `executions_id_unique` ON `executions` (`id`);--> statement-breakpoint
CREATE INDEX `executions_queue` ON `executions` (`status`,`priority`,`seq`);--> statement-breakpoint
CREATE INDEX `executions_job` ON `executions` (`job_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `executions_idempotency` ON `executions` (`api_key_id`,`idempotency_key`) WHERE "executions"."idempotency_key" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `desktop_pool` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `timeout_ms` integer;