// UI Automation's vocabulary → the element model's small role and state sets, for the shared
// native mapping (../native/element-mapping.ts). What the Windows helper puts in a HelperNode:
// - `role`: the ControlType's programmatic name without its prefix ("Button", "Edit", "DataItem").
// - `states`, one word per UIA property that holds: `disabled` (IsEnabled false), `offscreen`
//   (IsOffscreen), `focused` (HasKeyboardFocus), `password` (IsPassword), `checked` / `mixed`
//   (Toggle.ToggleState On / Indeterminate), `selected` (SelectionItem.IsSelected), `expanded` /
//   `collapsed` (ExpandCollapse.ExpandCollapseState), `readonly` (Value.IsReadOnly, RangeValue
//   .IsReadOnly), `modal` (Window.IsModal), `required` (IsRequiredForForm), `invalid`
//   (IsDataValidForForm false).
// - `actions`, for roles that do not say what they do (Pane, Custom, ListItem…): `invoke`, `toggle`,
//   `expandcollapse`, `selectionitem` when the pattern is there.
// - table cells: `row` / `column` from GridItem, `columnHeader` by column; tables: `columns` from
//   Table.GetColumnHeaders.
// Window chrome (TitleBar, ScrollBar, Thumb, Separator, ToolTip) is left out by the helper and by
// this table alike.
import type { UiRole, UiState } from '../../../protocol/elements.ts'
import type { HelperNode } from '../../../protocol/helper.ts'
import type { BackendProfile } from '../native/element-mapping.ts'

const ROLES: Record<string, UiRole> = {
  Window: 'window',
  Pane: 'generic',
  Custom: 'generic',
  SemanticZoom: 'generic',
  // The header row of a grid: its header items become the table's header row.
  Header: 'generic',
  Group: 'group',
  Calendar: 'group',
  Button: 'button',
  SplitButton: 'button',
  Hyperlink: 'link',
  Edit: 'textbox',
  // A text editor's page (Notepad, WordPad); one with no value of its own is a container (refineRole).
  Document: 'textbox',
  Spinner: 'spinbutton',
  CheckBox: 'checkbox',
  RadioButton: 'radio',
  ComboBox: 'combobox',
  // UIA's List is a selection container (a list box); its items are options (refineRole).
  List: 'listbox',
  ListItem: 'listitem',
  Text: 'text',
  Table: 'table',
  DataGrid: 'table',
  DataItem: 'listitem',
  HeaderItem: 'columnheader',
  Tree: 'tree',
  TreeItem: 'treeitem',
  Menu: 'menu',
  MenuBar: 'menubar',
  MenuItem: 'menuitem',
  ToolBar: 'toolbar',
  AppBar: 'toolbar',
  Tab: 'tablist',
  TabItem: 'tab',
  Image: 'image',
  StatusBar: 'status',
  ProgressBar: 'progressbar',
  Slider: 'slider',
}

const STATES: Record<string, UiState> = {
  focused: 'focused',
  disabled: 'disabled',
  checked: 'checked',
  mixed: 'mixed',
  indeterminate: 'mixed',
  selected: 'selected',
  expanded: 'expanded',
  collapsed: 'collapsed',
  readonly: 'readonly',
  'read-only': 'readonly',
  modal: 'modal',
  required: 'required',
  invalid: 'invalid',
  busy: 'busy',
  // `offscreen` and `password` have no state in the model: an element scrolled out of
  // view (or in a closed drop-down) is still there to act on; a password shows as inputType.
}

/** Never shown: window chrome (its Close button would compete with the app's own), scrolling parts, tips. */
const SKIPPED = new Set(['TitleBar', 'ScrollBar', 'Thumb', 'Separator', 'ToolTip'])

/** What WPF names a DataGrid cell: "Item: <row object>, Column Display Index: <n>". */
const WPF_CELL_NAME = /^Item: .*, Column Display Index: \d+$/
/**
 * An item bound to an object without a ToString of its own is named after the object's .NET type
 * ("Contoso.Orders.Order"); its children show the text people see.
 */
const TYPE_NAME = /^(?:[A-Za-z_][\w`]*\.)+[A-Z][\w`]*(?:\[[^\]]*\])?$/
/** WPF's stand-ins: the empty row at the end of an editable DataGrid, an unset binding. */
const PLACEHOLDERS = new Set(['{NewItemPlaceholder}', '{DependencyProperty.UnsetValue}'])

function adjust(node: HelperNode, parentRole: UiRole | undefined): HelperNode | undefined {
  // The blank "new row" of an editable DataGrid holds no data: a table read would get an empty record.
  if (node.role === 'DataItem' && node.name === '{NewItemPlaceholder}') return undefined
  // WPF's empty row header in front of each DataGrid row.
  if (node.role === 'HeaderItem' && parentRole === 'row' && !node.name) return undefined
  if (node.role === 'ComboBox') return comboBox(node)
  if (node.role === 'RadioButton' && node.states.includes('selected'))
    // A radio button says it is chosen through SelectionItem; the model (like ARIA) says checked.
    return { ...node, states: node.states.map((s) => (s === 'selected' ? 'checked' : s)) }
  if (placeholderName(node)) return { ...node, name: '' }
  return node
}

function placeholderName(node: HelperNode): boolean {
  if (!node.name) return false
  if (PLACEHOLDERS.has(node.name) || WPF_CELL_NAME.test(node.name)) return true
  return (
    (node.role === 'ListItem' || node.role === 'DataItem' || node.role === 'TreeItem') &&
    node.children.length > 0 &&
    TYPE_NAME.test(node.name)
  )
}

/**
 * A combo box's parts as UIA shows them: its drop-down button ("Open", which would compete with
 * the app's own Open button) is left out and the items of its drop-down list become its options,
 * as a browser's select holds its options; an entry (an editable combo box) stays.
 */
function comboBox(node: HelperNode): HelperNode {
  const children = node.children.flatMap((child) => {
    if (child.role === 'Button') return []
    if (child.role === 'List') return child.children
    return [child]
  })
  return { ...node, children }
}

function refineRole(node: HelperNode, role: UiRole, parentRole: UiRole | undefined): UiRole {
  switch (node.role) {
    case 'Window':
      // An app's modal window (a #32770 dialog, a message box) inside the snapshot is its dialog.
      return node.states.includes('modal') ? 'dialog' : role
    case 'Document':
      // Notepad's page has a value; a browser's or Word's page is a container of its content.
      return node.value !== undefined ? 'textbox' : 'generic'
    case 'ListItem':
    case 'DataItem':
      if (parentRole === 'table') return 'row'
      return parentRole === 'listbox' || parentRole === 'combobox' ? 'option' : 'listitem'
    case 'HeaderItem':
      return parentRole === 'row' ? 'rowheader' : role
    default:
      // A grid's cell is whatever its framework made it (WPF: Custom; WinForms: Edit or Custom);
      // its grid position (GridItem) says it is a cell.
      if (
        node.row !== undefined &&
        node.column !== undefined &&
        (parentRole === 'row' || parentRole === 'table')
      )
        return 'cell'
      return role
  }
}

export const UIA_PROFILE: BackendProfile = {
  roles: ROLES,
  states: STATES,
  skipped: SKIPPED,
  // A Pane or Custom element that can be invoked is a button to whoever looks at it.
  clickable: (node) => node.actions?.some((a) => a.toLowerCase() === 'invoke') ?? false,
  refineRole,
  adjust,
  inputType: (node) => (node.states.includes('password') ? 'password' : undefined),
}
