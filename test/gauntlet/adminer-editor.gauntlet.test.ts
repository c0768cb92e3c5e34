import { startAdminerEditor } from './apps/adminer-editor.ts'
import { adminerEditorJobs } from './jobs/adminer-editor-jobs.ts'
import { gauntletSuite } from './suite.ts'

// Debian's Adminer Editor (Adminer's data-entry UI for end users) as a shop back office on SQLite,
// behind its sign-in (username and password as job secrets). A product's id is shown only in the
// "Item N has been inserted." message; a lookup types the SKU into the products list's search
// box; a change opens the "edit" link in the row showing the SKU. Checked in the database file.
gauntletSuite('adminer-editor', startAdminerEditor, adminerEditorJobs)
