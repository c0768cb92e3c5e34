CREATE TABLE `job_submitted_values` (
	`job_id` text NOT NULL,
	`values_key` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`job_id`, `values_key`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
