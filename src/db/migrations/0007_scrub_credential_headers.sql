-- Issue 9 item 6: callers' credential headers (Authorization, Cookie, tokens…) were stored in
-- samples and executions. Keep every other header; the rule is src/lib/credential-headers.ts.
UPDATE `samples` SET `input` = json_set(`input`, '$._http.headers', json((
  SELECT json_group_object(key, value) FROM json_each(`samples`.`input`, '$._http.headers')
  WHERE NOT (('-' || lower(key) || '-') LIKE '%-auth-%' OR ('-' || lower(key) || '-') LIKE '%-authorization-%' OR ('-' || lower(key) || '-') LIKE '%-cookie-%' OR ('-' || lower(key) || '-') LIKE '%-token-%' OR ('-' || lower(key) || '-') LIKE '%-secret-%' OR ('-' || lower(key) || '-') LIKE '%-password-%' OR ('-' || lower(key) || '-') LIKE '%-passwd-%' OR ('-' || lower(key) || '-') LIKE '%-session-%' OR ('-' || lower(key) || '-') LIKE '%-csrf-%' OR ('-' || lower(key) || '-') LIKE '%-xsrf-%' OR ('-' || lower(key) || '-') LIKE '%-api-key-%' OR ('-' || lower(key) || '-') LIKE '%-apikey-%' OR ('-' || lower(key) || '-') LIKE '%-signature-%')
)))
WHERE json_type(`input`, '$._http.headers') = 'object';
--> statement-breakpoint
UPDATE `executions` SET `input` = json_set(`input`, '$._http.headers', json((
  SELECT json_group_object(key, value) FROM json_each(`executions`.`input`, '$._http.headers')
  WHERE NOT (('-' || lower(key) || '-') LIKE '%-auth-%' OR ('-' || lower(key) || '-') LIKE '%-authorization-%' OR ('-' || lower(key) || '-') LIKE '%-cookie-%' OR ('-' || lower(key) || '-') LIKE '%-token-%' OR ('-' || lower(key) || '-') LIKE '%-secret-%' OR ('-' || lower(key) || '-') LIKE '%-password-%' OR ('-' || lower(key) || '-') LIKE '%-passwd-%' OR ('-' || lower(key) || '-') LIKE '%-session-%' OR ('-' || lower(key) || '-') LIKE '%-csrf-%' OR ('-' || lower(key) || '-') LIKE '%-xsrf-%' OR ('-' || lower(key) || '-') LIKE '%-api-key-%' OR ('-' || lower(key) || '-') LIKE '%-apikey-%' OR ('-' || lower(key) || '-') LIKE '%-signature-%')
)))
WHERE json_type(`input`, '$._http.headers') = 'object';
