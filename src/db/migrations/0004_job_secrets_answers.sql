CREATE TABLE `job_answers` (
	`job_id` text NOT NULL,
	`kind` text NOT NULL,
	`question_text` text NOT NULL,
	`options_key` text NOT NULL,
	`answer` text NOT NULL,
	`build_id` text NOT NULL,
	`answered_at` text NOT NULL,
	PRIMARY KEY(`job_id`, `kind`, `question_text`, `options_key`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `job_secrets` (
	`job_id` text NOT NULL,
	`name` text NOT NULL,
	`ciphertext` blob NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`job_id`, `name`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
