// AT-SPI's vocabulary (role names as libatspi spells them) → the element model's small role and
// state sets, for the shared native mapping (../native/element-mapping.ts).
import type { UiRole, UiState } from '../../../protocol/elements.ts'
import type { BackendProfile } from '../native/element-mapping.ts'

const ROLES: Record<string, UiRole> = {
  frame: 'window',
  window: 'window',
  dialog: 'dialog',
  'file chooser': 'dialog',
  'font chooser': 'dialog',
  alert: 'alertdialog',
  'push button': 'button',
  'toggle button': 'button',
  'push button menu': 'button',
  button: 'button',
  link: 'link',
  text: 'textbox',
  entry: 'textbox',
  'password text': 'textbox',
  editbar: 'textbox',
  terminal: 'textbox',
  'spin button': 'spinbutton',
  'check box': 'checkbox',
  'radio button': 'radio',
  switch: 'switch',
  'combo box': 'combobox',
  'list box': 'listbox',
  list: 'list',
  'list item': 'listitem',
  /** The helper's own name for the items of a combo box's popup list. */
  option: 'option',
  heading: 'heading',
  label: 'text',
  static: 'text',
  caption: 'text',
  paragraph: 'text',
  'description term': 'rowheader',
  'description value': 'cell',
  table: 'table',
  'tree table': 'table',
  'table row': 'row',
  'table cell': 'cell',
  'table column header': 'columnheader',
  'column header': 'columnheader',
  'table row header': 'rowheader',
  'row header': 'rowheader',
  tree: 'tree',
  'tree item': 'treeitem',
  grouping: 'group',
  form: 'form',
  menu: 'menu',
  'popup menu': 'menu',
  'menu bar': 'menubar',
  'menu item': 'menuitem',
  'check menu item': 'menuitem',
  'radio menu item': 'menuitem',
  'tool bar': 'toolbar',
  'page tab list': 'tablist',
  'page tab': 'tab',
  image: 'image',
  icon: 'image',
  'desktop icon': 'image',
  animation: 'image',
  'status bar': 'status',
  'info bar': 'status',
  notification: 'status',
  'progress bar': 'progressbar',
  'level bar': 'progressbar',
  slider: 'slider',
  dial: 'slider',
  article: 'listitem',
}

const STATES: Record<string, UiState> = {
  focused: 'focused',
  disabled: 'disabled',
  checked: 'checked',
  indeterminate: 'mixed',
  pressed: 'pressed',
  selected: 'selected',
  required: 'required',
  invalid: 'invalid',
  expanded: 'expanded',
  collapsed: 'collapsed',
  'read-only': 'readonly',
  modal: 'modal',
  busy: 'busy',
}

/** Action names that mean "what a click does". */
const CLICK_ACTIONS = new Set(['click', 'press', 'activate', 'jump'])

export const ATSPI_PROFILE: BackendProfile = {
  roles: ROLES,
  states: STATES,
  skipped: new Set(['separator', 'scroll bar', 'tool tip', 'tearoff menu item']),
  editableState: 'editable',
  inputType: (node) => (node.role === 'password text' ? 'password' : undefined),
  clickable: (node) => node.actions?.some((a) => CLICK_ACTIONS.has(a.toLowerCase())) ?? false,
  // GTK's check and radio menu items do not set the checkable state; their role says it.
  checkableRoles: new Set(['check menu item', 'radio menu item', 'toggle button']),
  submenuRoles: new Set(['menu']),
  refineRole(node, role, parentRole) {
    // GTK and Qt expose a submenu ("File" in the menu bar) as a menu; users see an item that opens one.
    if (role === 'menu' && (parentRole === 'menubar' || parentRole === 'menu' || parentRole === 'menuitem'))
      return 'menuitem'
    // List items of a list box are its options (what `select` picks).
    if (role === 'listitem' && (parentRole === 'listbox' || parentRole === 'combobox')) return 'option'
    // A plain window's root and toolkit dialogs inside it are dialogs when they say they are modal.
    if (role === 'window' && node.states.includes('modal')) return 'dialog'
    return role
  },
}
