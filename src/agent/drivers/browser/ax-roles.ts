// Chromium's accessibility vocabulary → the element model's small role and state sets.
import type { Protocol } from 'devtools-protocol'
import type { UiRole, UiState } from '../../../protocol/elements.ts'

export const ROLE_MAP: Record<string, UiRole> = {
  button: 'button',
  link: 'link',
  textbox: 'textbox',
  searchbox: 'textbox',
  // Native date and time inputs: one field holding an ISO value, not their day/month/year parts.
  Date: 'textbox',
  DateTime: 'textbox',
  InputTime: 'textbox',
  spinbutton: 'spinbutton',
  checkbox: 'checkbox',
  radio: 'radio',
  switch: 'switch',
  combobox: 'combobox',
  listbox: 'listbox',
  option: 'option',
  heading: 'heading',
  table: 'table',
  grid: 'table',
  treegrid: 'table',
  row: 'row',
  cell: 'cell',
  gridcell: 'cell',
  columnheader: 'columnheader',
  rowheader: 'rowheader',
  // A description list (<dl>) is label/value pairs: each term is a header, each detail its value,
  // kept apart so a record page's "Title  Groceries" reads as two things, not one run of text.
  term: 'rowheader',
  DescriptionListTerm: 'rowheader',
  definition: 'cell',
  DescriptionListDetail: 'cell',
  list: 'list',
  listitem: 'listitem',
  // An <article> is one of a run of like items (a card per collection, a post in a feed): an item,
  // so "the URL of the card titled X" can be found the way "the cell of the row showing X" is.
  article: 'listitem',
  tree: 'tree',
  treeitem: 'treeitem',
  group: 'group',
  radiogroup: 'group',
  form: 'form',
  menu: 'menu',
  menubar: 'menubar',
  menuitem: 'menuitem',
  menuitemcheckbox: 'menuitem',
  menuitemradio: 'menuitem',
  toolbar: 'toolbar',
  tablist: 'tablist',
  tab: 'tab',
  tabpanel: 'tabpanel',
  image: 'image',
  img: 'image',
  status: 'status',
  alert: 'alert',
  progressbar: 'progressbar',
  meter: 'progressbar',
  slider: 'slider',
  dialog: 'dialog',
  alertdialog: 'alertdialog',
}

export function statesOf(node: Protocol.Accessibility.AXNode): UiState[] {
  const states: UiState[] = []
  for (const property of node.properties ?? []) {
    const value = property.value.value as unknown
    switch (property.name) {
      case 'focused':
      case 'disabled':
      case 'selected':
      case 'required':
      case 'modal':
      case 'busy':
        if (value === true) states.push(property.name)
        break
      case 'expanded':
        // aria-expanded="false": a drop-down or section that hides its content until pressed.
        states.push(value === true ? 'expanded' : 'collapsed')
        break
      case 'readonly':
        if (value === true) states.push('readonly')
        break
      case 'invalid':
        if (value !== 'false' && value !== false) states.push('invalid')
        break
      case 'checked':
        if (value === 'true') states.push('checked')
        else if (value === 'mixed') states.push('mixed')
        break
      case 'pressed':
        // aria-pressed, whatever its value: a toggle button.
        states.push('checkable')
        if (value === 'true') states.push('pressed')
        else if (value === 'mixed') states.push('mixed')
        break
    }
  }
  const role = node.role?.value
  if (role === 'menuitemcheckbox' || role === 'menuitemradio') states.push('checkable')
  return states
}
