import { MONTHS } from '../../../../src/automation/date-filters.ts'

// Widget patterns as real apps write them (markup modelled on common admin UIs and booking
// forms): recorded by capture.ts into the snapshots the value-mapping tests read.
const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`

const days = Array.from({ length: 31 }, (_, i) => `<option value="${i + 1}">${i + 1}</option>`).join('')
const months = MONTHS
const years = Array.from({ length: 100 }, (_, i) => `<option>${2026 - i}</option>`).join('')

export const PAGES: Record<string, string> = {
  /** A profile form: native date, e-mail known by its type only, yes/no radios, a consent box, a country list. */
  'profile-form': page(
    'Edit profile',
    `<h1>Edit profile</h1>
<form>
  <p><label for="fullname">Full name</label> <input id="fullname" name="fullname"></p>
  <p><label for="contact">Contact</label> <input id="contact" name="contact" type="email"></p>
  <p><label for="phone">Phone</label> <input id="phone" name="phone" type="tel"></p>
  <p><label for="born">Date of birth</label> <input id="born" name="born" type="date"></p>
  <p><label for="seats">Seats</label> <input id="seats" name="seats" type="number" min="1"></p>
  <fieldset><legend>Subscribe to the newsletter?</legend>
    <label><input type="radio" name="news" value="1"> Yes</label>
    <label><input type="radio" name="news" value="0"> No</label>
  </fieldset>
  <p><input type="checkbox" id="terms"> <label for="terms">I accept the terms</label></p>
  <p><label for="country">Country</label> <select id="country">
    <option value="">Choose…</option><option value="at">Österreich</option><option value="fr">France</option>
    <option value="gb">United Kingdom</option><option value="us">United States</option><option value="de">Germany</option>
  </select></p>
  <p><button type="submit">Save profile</button></p>
</form>`,
  ),
  /** Split date: three selects (day numbers, month names, years) after one caption. */
  'date-parts': page(
    'Book a visit',
    `<h1>Book a visit</h1>
<form>
  <p><label for="visitor">Visitor name</label> <input id="visitor"></p>
  <div class="row"><span>Visit date</span>
    <select name="visit_day" aria-label="Day"><option value="">Day</option>${days}</select>
    <select name="visit_month" aria-label="Month"><option value="">Month</option>${months.map((m, i) => `<option value="${i + 1}">${m}</option>`).join('')}</select>
    <select name="visit_year" aria-label="Year"><option value="">Year</option>${years}</select>
  </div>
  <div class="row"><span>Expiry</span>
    <input name="exp_dd" size="2" maxlength="2" placeholder="DD"> /
    <input name="exp_mm" size="2" maxlength="2" placeholder="MM"> /
    <input name="exp_yyyy" size="4" maxlength="4" placeholder="YYYY">
  </div>
  <p><button type="submit">Book</button></p>
</form>`,
  ),
  /** A JS date picker: a plain text box whose placeholder shows the format; a search box known by its placeholder. */
  'picker-and-search': page(
    'Orders',
    `<header><input type="text" name="q" placeholder="Search orders…"> <button>Go</button></header>
<h1>New order</h1>
<form>
  <div class="field"><div class="caption">Customer</div><input id="c1" class="x"></div>
  <div class="field"><div class="caption">Delivery date</div>
    <input type="text" id="dp" class="datepicker" placeholder="DD/MM/YYYY" autocomplete="off"></div>
  <div class="field"><input type="text" placeholder="E-mail address"></div>
  <p><button type="submit">Place order</button></p>
</form>`,
  ),
  /** An ARIA combobox with typeahead (its options appear only when typing) and a table of inputs per column. */
  'combobox-and-grid': page(
    'Assign work',
    `<h1>Assign work</h1>
<label id="assignee-label">Assignee</label>
<input role="combobox" aria-labelledby="assignee-label" aria-expanded="false" aria-autocomplete="list" aria-controls="people">
<ul role="listbox" id="people" hidden><li role="option">Ada Lovelace</li><li role="option">Grace Hopper</li></ul>
<table>
  <thead><tr><th>Task</th><th>Hours</th><th>Due</th></tr></thead>
  <tbody><tr><td><input name="t1"></td><td><input name="h1" type="number"></td><td><input name="d1" type="date"></td></tr></tbody>
</table>
<button>Assign</button>`,
  ),
}
