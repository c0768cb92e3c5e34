// WordPress (Debian's `wordpress`) on a private MariaDB (test/thirdparty/shared/mariadb.ts), all in
// temp dirs: a private copy of /usr/share/wordpress whose own wp-config.php names the database
// directly (Debian's reads /etc/wordpress/config-<host>.php, which is left alone), installed by
// WordPress's own wp_install() with an admin of known password, served by PHP's own server on a
// free 127.0.0.1 port. Posts are read back from wp_posts; sign-in sessions live in the admin's
// `session_tokens` user meta.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import { freePort, waitUntilUp } from '../../gauntlet/apps/fossil.ts'
import { startPhpServer } from '../../gauntlet/apps/php-server.ts'
import type { RunningApp } from '../../gauntlet/types.ts'
import { startMariaDb } from '../shared/mariadb.ts'

export const WP_USER = 'editor'
export const WP_PASSWORD = 'office-blog-pass-42'

export interface StoredPost {
  id: number
  title: string
  status: string
  content: string
  type: string
}

export interface WordPress extends RunningApp {
  /** The blog's posts (post_type "post", any status but auto-drafts), read from wp_posts. */
  posts(): StoredPost[]
  /**
   * Adds a post with WordPress's own wp_insert_post (not through the UI), in a category when one is
   * named (made if new); returns its id.
   */
  addPost(title: string, content: string, status?: 'publish' | 'draft', category?: string): number
  /** The names of the categories a post is filed in. */
  categoriesOf(id: number): string[]
  /** The names of the tags a post carries. */
  tagsOf(id: number): string[]
  /** Every category with its parent's name ('' at the top). */
  categories(): { name: string; parent: string }[]
  /** The admin's stored sign-in sessions (the `session_tokens` user meta, PHP-serialized). */
  sessionTokens(): string[]
  /** Ends every signed-in session: the admin's session tokens are deleted. */
  clearSessions(): Promise<void>
}

const ROOT = '/usr/share/wordpress'

export async function startWordPress(): Promise<WordPress> {
  await ensureDebianPackage('/usr/bin/php', 'php-cli')
  await ensureDebianPackage(`${ROOT}/wp-login.php`, 'wordpress')
  await ensureDebianPackage('/usr/share/doc/php-mysql', 'php-mysql')
  const db = await startMariaDb()
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-wordpress-'))
  const stops: (() => Promise<void>)[] = [() => db.stop()]
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => {})
    stops.length = 0
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const dbPassword = `wp-${crypto.randomUUID().slice(0, 12)}`
    db.createDatabase('wordpress', 'wordpress', dbPassword)
    const web = join(dir, 'www')
    // A real copy: WordPress finds its config next to wp-load.php (by real path, so no symlinks).
    cpSync(ROOT, web, { recursive: true, dereference: true, filter: (src) => existsSync(src) })
    mkdirSync(join(web, 'wp-content', 'uploads'), { recursive: true })
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const salt = () => crypto.randomUUID() + crypto.randomUUID()
    const keys = [
      'AUTH_KEY',
      'SECURE_AUTH_KEY',
      'LOGGED_IN_KEY',
      'NONCE_KEY',
      'AUTH_SALT',
      'SECURE_AUTH_SALT',
      'LOGGED_IN_SALT',
      'NONCE_SALT',
    ]
    writeFileSync(
      join(web, 'wp-config.php'),
      `<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'wordpress');
define('DB_PASSWORD', '${dbPassword}');
define('DB_HOST', '127.0.0.1:${db.port}');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
${keys.map((k) => `define('${k}', '${salt()}');`).join('\n')}
$table_prefix = 'wp_';
define('WP_HOME', '${url}');
define('WP_SITEURL', '${url}');
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
define('WP_AUTO_UPDATE_CORE', false);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('DISABLE_WP_CRON', true);
// An office machine without the internet: no calls home to wordpress.org.
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_DEBUG', false);
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`,
    )
    const php = (code: string) => {
      const script = join(dir, `run-${crypto.randomUUID()}.php`)
      writeFileSync(script, `<?php\n${code}\n`)
      try {
        const out = Bun.spawnSync(['php', script], { cwd: web, stdout: 'pipe', stderr: 'pipe' })
        if (out.exitCode !== 0)
          throw new Error(
            `wordpress php failed: ${out.stderr.toString()}${out.stdout.toString()}`.slice(0, 1500),
          )
        return out.stdout.toString()
      } finally {
        rmSync(script, { force: true })
      }
    }
    const load = `$_SERVER['HTTP_HOST'] = '127.0.0.1:${port}';\n$_SERVER['REQUEST_URI'] = '/';\nrequire '${web}/wp-load.php';\n`
    // WordPress's own installer, as wp-admin/install.php runs it.
    php(`define('WP_INSTALLING', true);
${load}require_once ABSPATH . 'wp-admin/includes/upgrade.php';
$r = wp_install('Office Blog', '${WP_USER}', 'editor@example.com', false, '', '${WP_PASSWORD}');
update_option('blogdescription', 'News from the office');
// The editor has written here before: the block editor's welcome tour was seen and closed.
update_user_meta($r['user_id'], $wpdb->get_blog_prefix() . 'persisted_preferences',
  ['core/edit-post' => ['welcomeGuide' => false], '_modified' => gmdate('c')]);
echo $r['user_id'];`)

    const server = startPhpServer(port, web, { cwd: web })
    stops.push(() => server.stop())
    await waitUntilUp(`${url}/wp-login.php`, 30_000)

    const q = (sql: string) => db.query(sql, 'wordpress')
    return {
      name: 'wordpress',
      url: `${url}/wp-admin/`,
      posts: () =>
        q(
          "SELECT ID, post_title, post_status, post_content, post_type FROM wp_posts WHERE post_type = 'post' AND post_status <> 'auto-draft' ORDER BY ID",
        ).map(([id, title, status, content, type]) => ({
          id: Number(id),
          title: title!,
          status: status!,
          content: content!,
          type: type!,
        })),
      addPost(title, content, status = 'publish', category) {
        const cat = category
          ? `require_once ABSPATH . 'wp-admin/includes/taxonomy.php';
$cats = [wp_create_category(${phpString(category)})];`
          : '$cats = [];'
        const out = php(`${load}
${cat}
$id = wp_insert_post(wp_slash([
  'post_category' => $cats,
  'post_title' => ${phpString(title)},
  'post_content' => ${phpString(`<!-- wp:paragraph -->\n<p>${content}</p>\n<!-- /wp:paragraph -->`)},
  'post_status' => '${status}',
  'post_author' => 1,
]), true);
if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message()); exit(1); }
echo $id;`)
        return Number(out.trim())
      },
      categoriesOf: (id) =>
        q(
          `SELECT t.name FROM wp_terms t JOIN wp_term_taxonomy x ON x.term_id = t.term_id AND x.taxonomy = 'category' JOIN wp_term_relationships r ON r.term_taxonomy_id = x.term_taxonomy_id WHERE r.object_id = ${Number(id)}`,
        ).map(([n]) => n!),
      tagsOf: (id) =>
        q(
          `SELECT t.name FROM wp_terms t JOIN wp_term_taxonomy x ON x.term_id = t.term_id AND x.taxonomy = 'post_tag' JOIN wp_term_relationships r ON r.term_taxonomy_id = x.term_taxonomy_id WHERE r.object_id = ${Number(id)}`,
        ).map(([n]) => n!),
      categories: () =>
        q(
          "SELECT t.name, COALESCE(p.name, '') FROM wp_term_taxonomy x JOIN wp_terms t ON t.term_id = x.term_id LEFT JOIN wp_terms p ON p.term_id = x.parent WHERE x.taxonomy = 'category' ORDER BY t.term_id",
        ).map(([name, parent]) => ({ name: name!, parent: parent ?? '' })),
      sessionTokens: () =>
        q("SELECT meta_value FROM wp_usermeta WHERE meta_key = 'session_tokens'").map(([v]) => v!),
      async clearSessions() {
        q("DELETE FROM wp_usermeta WHERE meta_key = 'session_tokens'")
      },
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}

/** A PHP expression for a string, whatever it holds. */
function phpString(s: string): string {
  return `base64_decode('${Buffer.from(s).toString('base64')}')`
}
