// Grisbi's accounts file (.gsb): plain XML, one element per record with its fields as attributes
// (<Party Nb Na>, <Transaction Ac Nb Dt Pa Am …>, dates as MM/DD/YYYY, amounts with a dot). The seed
// is a household's file written here in the shape Grisbi 2.0.5 saves; the readers parse the file
// Grisbi wrote on its last save.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AppHome } from '../../helpers/native-apps.ts'

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The payees of the seed, by number. */
export const SEED_PAYEES = ['Green Valley Grocers', 'City Power & Light', 'Riverside Apartments']

/** The transactions of the seed: account 1, date (MM/DD/YYYY), payee number, amount, note. */
const SEED_TRANSACTIONS: [string, number, string, string][] = [
  ['10/01/2026', 3, '-950.00', 'October rent'],
  ['10/06/2026', 1, '-84.37', ''],
  ['10/12/2026', 2, '-61.20', 'Electricity bill'],
  ['10/20/2026', 1, '-112.05', ''],
]

const transaction = ([date, payee, amount, note]: [string, number, string, string], nb: number) =>
  `\t<Transaction Ac="1" Nb="${nb}" Id="(null)" Dt="${date}" Dv="(null)" Cu="1" Am="${amount}" Exb="0" ` +
  `Exr="0.00" Exf="0.00" Pa="${payee}" Ca="0" Sca="0" Br="0" No="${note ? esc(note) : '(null)'}" Pn="1" ` +
  `Pc="(null)" Ma="0" Ar="0" Au="0" Re="0" Fi="0" Bu="0" Sbu="0" Vo="(null)" Ba="(null)" Trt="0" Mo="0" />`

/** A household's file: one checking account with four payments to three payees. */
export function seedFile(): string {
  const parties = SEED_PAYEES.map(
    (name, i) =>
      `\t<Party Nb="${i + 1}" Na="${esc(name)}" Txt="(null)" Search="(null)" IgnCase="0" UseRegex="0" />`,
  )
  return `<?xml version="1.0"?>
<Grisbi>
\t<General File_version="2.0.0" Grisbi_version="2.0.5" Crypt_file="0" Archive_file="0" File_title="Household" General_address="(null)" Second_general_address="(null)" Date_format="%m/%d/%Y" Decimal_point="." Thousands_separator="," Party_list_currency_number="1" Category_list_currency_number="1" Budget_list_currency_number="1" Navigation_list_order="1-2-3-4-5-6-7-8-9-10-11-" Scheduler_view="0" Scheduler_custom_number="1" Scheduler_custom_menu="0" Import_interval_search="2" Use_logo="1" Is_pixmap_in_bank="0" Remind_display_per_account="0" Transactions_view="18-1-3-13-5-6-7-0-0-12-0-9-8-0-0-0-15-0-0-0-0-0-0-0-0-0-0-0" Form_columns_number="4" Form_lines_number="3" Form_organization="1-6-2-3-0-0-0-7-11-12-0-0-0-10-0-0-0-0-0-0-0-0-0-0" Form_columns_width="15-50-15-15-0-0" One_line_showed="0" Two_lines_showed="1-2" Three_lines_showed="1-2-3" Transaction_column_width="10-12-36-6-12-12-12" Scheduler_column_width="12-36-12-12-12-12-12" Combofix_mixed_sort="0" Combofix_case_sensitive="0" Automatic_amount_separator="0" CSV_separator=";" CSV_force_date_valeur_with_date="0" Metatree_assoc_mode="0" Add_archive_in_total_balance="1" Bet_capital="0" Bet_currency="1" Bet_taux_annuel="0" Bet_index_duree="0" Bet_frais="0" Bet_type_taux="0" />
\t<Color Background_color_0="#d6e0f7" Background_color_1="#ffffff" Couleur_jour="#e1e1ff" Background_scheduled="#aaaaaa" Background_archive="#e4f7ee" Selection="#d6e0f7" Background_split="#e6e6e6" Text_color_0="#000000" Text_color_1="#ff0000" Couleur_bet_division="#ffe4e4" Couleur_bet_future="#d6e0f7" Couleur_bet_solde="#ff0000" Couleur_bet_transfert="#e1e1ff" />
\t<Print Draw_lines="1" Draw_column="1" Draw_background="1" Draw_archives="1" Draw_columns_name="1" Draw_title="1" Draw_interval_dates="1" Draw_dates_are_value_dates="0" Font_transactions="Sans 9" Font_title="Sans 14" Report_font_transactions="Sans 9" Report_font_title="Sans 14" />
\t<Currency Nb="1" Na="US Dollar" Co="$" Ico="USD" Fl="2" />
\t<Bank Nb="1" Na="First Community Bank" Co="(null)" BIC="(null)" Adr="(null)" Tel="(null)" Mail="(null)" Web="(null)" Nac="(null)" Faxc="(null)" Telc="(null)" Mailc="(null)" Rem="(null)" />
\t<Account Name="Checking" Id="(null)" Number="1" Owner="(null)" Kind="0" Currency="1" Path_icon="(null)" Bank="1" Bank_branch_code="(null)" Bank_account_number="(null)" Key="(null)" Bank_account_IBAN="(null)" Initial_balance="2400.00" Minimum_wanted_balance="0.00" Minimum_authorised_balance="0.00" Closed_account="0" Show_marked="0" Show_archives_lines="0" Lines_per_transaction="1" Comment="(null)" Owner_address="(null)" Default_debit_method="1" Default_credit_method="2" Sort_by_method="0" Neutrals_inside_method="0" Sort_order="1/2/3" Ascending_sort="0" Column_sort="1" Sorting_kind_column="18-1-3-13-5-6-0" Bet_use_budget="0" />
\t<Payment Number="1" Name="Debit card" Sign="1" Show_entry="0" Automatic_number="0" Current_number="0" Account="0" />
\t<Payment Number="2" Name="Deposit" Sign="2" Show_entry="0" Automatic_number="0" Current_number="0" Account="0" />
${SEED_TRANSACTIONS.map((t, i) => transaction(t, i + 1)).join('\n')}
${parties.join('\n')}
</Grisbi>
`
}

export interface GsbPayee {
  nb: number
  name: string
}
export interface GsbTransaction {
  nb: number
  account: number
  /** As Grisbi writes it: MM/DD/YYYY. */
  date: string
  payee: number
  amount: number
  note: string
}

const attrs = (tag: string) => {
  const out: Record<string, string> = {}
  for (const [, k, v] of tag.matchAll(/(\w+)="([^"]*)"/g))
    out[k!] = v!
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&')
  return out
}
const elements = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}\\s[^>]*?/>`, 'g'))].map((m) => attrs(m[0]))

/** The payees stored in the file. */
export function payees(file: string): GsbPayee[] {
  return elements(readFileSync(file, 'utf8'), 'Party').map((a) => ({ nb: Number(a.Nb), name: a.Na ?? '' }))
}

/** The transactions stored in the file (split children included, as Grisbi stores them). */
export function transactions(file: string): GsbTransaction[] {
  return elements(readFileSync(file, 'utf8'), 'Transaction').map((a) => ({
    nb: Number(a.Nb),
    account: Number(a.Ac),
    date: a.Dt ?? '',
    payee: Number(a.Pa),
    amount: Number(a.Am),
    note: a.No && a.No !== '(null)' ? a.No : '',
  }))
}

/**
 * Grisbi's own settings (a key file, $XDG_CONFIG_HOME/grisbi/grisbi.conf) as a person who went
 * through its first-run assistant ("Welcome to Grisbi!") once has them: first-use off, every other
 * value Grisbi's default (a key missing from the file reads as false, so they are all written), and
 * its window as a person has sized it (at its minimum size the form's Validate button is off-window).
 */
const SETTINGS = `[Root]
first-use=false

[Backup]
compress-backup=false
make-backup-every-minutes=false
make-backup-nb-minutes=5
make-backup-single-file=false
remove-backup-files=false
remove-backup-months=12
sauvegarde-fermeture=true
sauvegarde-ouverture=false

[Display]
display-help=Html
display-toolbar=Text + Icons
display-window-title=Entity name
formulaire-toujours-affiche=true
group-partial-balance-under-accounts=true
show-closed-accounts=false
show-headings-bar=true

[File]
archives-check-auto=true
compress-file=false
dernier-fichier-auto=false
force-enregistrement=false
force-import-directory=false
import-remove-file=false
max-transactions-before-warn-archival=3000
nb-max-derniers-fichiers-ouverts=3
sauvegarde-auto=false

[Form]
affichage-exercice-automatique=false
automatic-completion-payee=false
automatic-erase-credit-debit=false
automatic-recover-splits=false
completion-minimum-key-length=1
form-enter-key=false
form-validate-split=false
fyear-combobox-sort-order=0
limit-completion-current-account=false

[General]
custom-fonte-listes=false
force-type-theme=0
metatree-action-button-press=gtk default
pluriel-final=false
show-transaction-gives-balance=false
show-transaction-selected-in-form=true
transactions-list-primary-sorting=Sort by value date
transactions-list-secondary-sorting=Sort by transaction number

[Geometry]
fullscreen=false
maximized=false
main-width=1280
main-height=960
x-position=0
y-position=0

[Tips]
last-tip=0
show-tip=false

[Scheduled]
balances-with-scheduled=true
execute-scheduled-of-month=false
select-scheduled-in-list=true
nb-days-before-scheduled=0
scheduler-fixed-day=1
scheduler-set-fixed-day=false
`

/** Writes Grisbi's settings into the home (first-run assistant done). */
export function seedSettings(home: AppHome) {
  const dir = join(home.env.XDG_CONFIG_HOME!, 'grisbi')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'grisbi.conf'), SETTINGS)
}
