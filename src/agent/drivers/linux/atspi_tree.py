# Windows and snapshots for the AT-SPI helper: the apps' top-level windows, and one window's
# tree read within an element budget. Also the helper's state (refs of the latest snapshot per
# window, change counters per app), which actions and waits read.
import os
import time

from atspi_common import (
    COMBO_ROLES, CONTROL_ROLES, DIALOG_ROLES, INTERPRETERS, ITEM_ROLES, LAYOUT_ROLES, S, SKIPPED_ROLES,
    STATE_NAMES, TABLE_ROLES, WINDOW_ROLES, LIVENESS, Atspi, Fail, alive_state, bus_of, log, number_text, proc_cmdline,
    proc_cwd, rect, relation_text, role_of, safe, text_of, window_id,
)
from atspi_x11 import X


# ── windows ──────────────────────────────────────────────────────────────────────────────────
def desktop_apps():
    desktop = Atspi.get_desktop(0)
    for i in range(safe(desktop.get_child_count, 0)):
        app = safe(lambda i=i: desktop.get_child_at_index(i))
        if app is not None:
            yield app


def app_pid(app):
    return safe(app.get_process_id, 0) or 0


def process_name(pid, app):
    """The executable's name (what users and app specs call the app), the AT-SPI name for scripts."""
    exe = safe(lambda: os.path.basename(os.readlink(f'/proc/{pid}/exe')), '')
    base = exe.rstrip('0123456789.') if exe else ''
    if exe and base not in INTERPRETERS:
        return exe
    return safe(app.get_name, '') or exe or 'unknown'


def app_windows(app, showing_only=True):
    for i in range(safe(app.get_child_count, 0)):
        win = safe(lambda i=i: app.get_child_at_index(i))
        if win is None:
            continue
        role = role_of(win)
        if role not in WINDOW_ROLES:
            continue
        states = alive_state(win)
        if states is None or (showing_only and not states.contains(S.SHOWING)):
            continue
        # Unnamed plain windows are popups (combo lists, menus, tooltips), shown inside their owner.
        if role == 'window' and not (safe(win.get_name, '') or '').strip():
            continue
        yield win, role, states


def window_info(win, app, role, states):
    pid = app_pid(app)
    bounds = rect(win)
    title = (safe(win.get_name, '') or '').strip()
    if not title:
        xwin = safe(lambda: X.window_for(pid, bounds)) if os.environ.get('DISPLAY') else None
        title = X.title(xwin).strip() if xwin is not None else ''
    info = {
        'id': window_id(win),
        'title': title or (safe(app.get_name, '') or ''),
        'app': process_name(pid, app),
        'pid': pid,
        'role': role,
        'modal': states.contains(S.MODAL),
    }
    if bounds:
        info['bounds'] = bounds
    argv = proc_cmdline(pid)
    if argv:
        # How this app was started: what starting it afresh needs (a build teaches from it).
        info['command'] = {'argv': argv}
        cwd = proc_cwd(pid)
        if cwd:
            info['command']['cwd'] = cwd
    return info


def list_windows():
    out = []
    for app in desktop_apps():
        if not LIVENESS.answers(bus_of(app)):
            log('warn', 'app skipped in the window list: it does not answer', app=safe(app.get_name, ''))
            continue
        try:
            out.extend(window_info(win, app, role, states) for win, role, states in app_windows(app))
        except Fail as failure:
            # One hung app does not hide every other window.
            log('warn', 'app skipped in the window list', app=safe(app.get_name, ''), error=failure.message)
    return out


def find_window(wid):
    bus, _, rest = wid.partition('/')
    path = '/' + rest
    for app in desktop_apps():
        if bus_of(app) != bus:
            continue
        LIVENESS.require(bus)
        for win, role, states in app_windows(app, showing_only=False):
            if win.path == path:
                return win, app, role, states
    raise Fail('WINDOW_NOT_FOUND', f'No window {wid} (it was closed, or its app quit)')


def modal_dialogs(app, exclude_path=None):
    return [(w, r, s) for w, r, s in app_windows(app) if w.path != exclude_path and (r in DIALOG_ROLES or s.contains(S.MODAL))]


# ── snapshots ─────────────────────────────────────────────────────────────────────────────────
class Walk:
    def __init__(self, budget, generation):
        self.budget = budget
        self.count = 0
        self.truncated = False
        self.refs = {}
        self.generation = generation

    def ref(self, acc):
        index = len(self.refs)
        self.refs[index] = acc
        return f'{self.generation}:{index}'


def node_of(acc, walk, states=None):
    """One raw node and its showing children, depth-first, until the element budget is spent.
    Each property read may be a round trip to the app, so only what the model uses is read."""
    if walk.count >= walk.budget:
        walk.truncated = True
        return None
    states = states or alive_state(acc)
    if states is None:
        return None
    role = role_of(acc)
    if role in SKIPPED_ROLES:
        return None
    walk.count += 1
    node = {
        'ref': walk.ref(acc),
        'role': role,
        'name': (safe(acc.get_name, '') or '').strip(),
        'states': [name for state, name in STATE_NAMES.items() if states.contains(state)],
        'children': [],
    }
    if not states.contains(S.ENABLED) or not states.contains(S.SENSITIVE):
        node['states'].append('disabled')
    if not (role in LAYOUT_ROLES and not node['name']):
        describe(acc, role, node)
    fill_value(acc, role, states, node)
    if role in COMBO_ROLES:
        node['children'] = combo_children(acc, walk)
        return node
    if role in TABLE_ROLES or is_grid_tree(acc, role):
        add_table_children(acc, walk, node)
        return node
    for child, child_states in children_with_states(acc):
        built = node_of(child, walk, child_states)
        if built is not None:
            node['children'].append(built)
        if walk.truncated:
            break
    return node


def describe(acc, role, node):
    bounds = rect(acc)
    if bounds:
        node['bounds'] = bounds
    if role in ITEM_ROLES:
        return  # cells and items: many, named by their text, never labelled or described by another
    description = (safe(acc.get_description, '') or '').strip()
    if description:
        node['description'] = description
    accessible_id = safe(acc.get_accessible_id, '') or ''
    if accessible_id:
        node['automationId'] = accessible_id
    if not node['name'] or role in CONTROL_ROLES:
        labelled = relation_text(acc, Atspi.RelationType.LABELLED_BY)
        if labelled:
            node['labelledBy'] = labelled
        described = relation_text(acc, Atspi.RelationType.DESCRIBED_BY)
        if described:
            node['describedBy'] = described
    if role not in CONTROL_ROLES:
        # What a role does not say: a panel or label that can be clicked.
        count = safe(acc.get_n_actions, 0) or 0
        if count:
            node['actions'] = [safe(lambda i=i: acc.get_action_name(i), '') or '' for i in range(count)]
    if role in ('text', 'entry', 'password text', 'spin button'):
        placeholder = safe(lambda: acc.get_attributes().get('placeholder-text'))
        if placeholder:
            node['placeholder'] = placeholder


def children_of(acc, everything=False):
    """Children on screen (a closed menu's items, another notebook page are not), or all of them."""
    for child, _ in children_with_states(acc, everything):
        yield child


def children_with_states(acc, everything=False):
    for i in range(safe(acc.get_child_count, 0)):
        child = safe(lambda i=i: acc.get_child_at_index(i))
        if child is None:
            continue
        states = alive_state(child)
        if states is None or (not everything and not states.contains(S.SHOWING) and not shows_inside(child, states)):
            continue
        yield child, states


# Layout wrappers a toolkit may leave without "showing" while what they hold shows (GTK's viewport
# of a form's sub-list): such a wrapper is walked into, not pruned.
WRAPPER_ROLES = {'viewport', 'scroll pane', 'filler', 'panel'}


def shows_inside(acc, states):
    if not states.contains(S.VISIBLE) or role_of(acc) not in WRAPPER_ROLES:
        return False
    for i in range(min(safe(acc.get_child_count, 0) or 0, 8)):
        child = safe(lambda i=i: acc.get_child_at_index(i))
        child_states = alive_state(child) if child is not None else None
        if child_states is not None and child_states.contains(S.SHOWING):
            return True
    return False


VALUE_ROLES = {'spin button', 'slider', 'progress bar', 'level bar', 'dial', 'scroll bar', 'color chooser'}


def fill_value(acc, role, states, node):
    """Value and text by role and state: asking an element for its interfaces costs a round trip."""
    if role == 'password text':
        node['value'] = ''
    elif states.contains(S.EDITABLE):
        node['value'] = text_of(acc) or ''
    elif role in VALUE_ROLES:
        current = safe(acc.get_current_value)
        if current is not None:
            node['value'] = number_text(current)
    elif not node['name']:
        # Labels and cells are named after their text; the text is read only when the name is empty.
        text = text_of(acc)
        if text and text.strip():
            node['text'] = text


def combo_children(combo, walk):
    """A combo box's options (its popup list, on screen or not) and its entry, if it has one."""
    selected = None
    out = []
    for child in children_of(combo, everything=True):
        role = role_of(child)
        if role in ('menu', 'list', 'list box', 'window'):
            for item in children_of(child, everything=True):
                if walk.count >= walk.budget:
                    walk.truncated = True
                    break
                item_states = alive_state(item)
                if item_states is None or role_of(item) in SKIPPED_ROLES:
                    continue
                walk.count += 1
                name = (safe(item.get_name, '') or '').strip() or (text_of(item, 500) or '').strip()
                option = {'ref': walk.ref(item), 'role': 'option', 'name': name, 'states': [], 'children': []}
                # An open list's items are on the screen: where, so a person can point at one and
                # a click can reach it (a closed list's have no place).
                if item_states.contains(S.SHOWING):
                    bounds = rect(item)
                    if bounds:
                        option['bounds'] = bounds
                if item_states.contains(S.SELECTED) or item_states.contains(S.CHECKED):
                    option['states'].append('selected')
                    selected = name
                out.append(option)
        else:
            built = node_of(child, walk)
            if built is not None:
                out.append(built)
    if selected is None:
        current = safe(lambda: combo.get_selected_child(0))
        if current is not None:
            selected = (safe(current.get_name, '') or '').strip()
            for option in out:
                if option['role'] == 'option' and option['name'] == selected:
                    option['states'].append('selected')
    return out


def is_grid_tree(acc, role):
    """A tree whose items are cells in two or more columns (Qt's item views say 'tree'): a table
    to read, row by row under its column headers, as GTK's 'tree table' is."""
    return role == 'tree' and (safe(acc.get_n_columns, 0) or 0) >= 2


def add_table_children(table, walk, node):
    """Cells with their row, column and column header; headers first, in column order."""
    headers = {}
    n_columns = safe(table.get_n_columns, 0) or 0
    for column in range(n_columns):
        header = safe(lambda column=column: table.get_column_header(column))
        if header is not None:
            headers[column] = (safe(header.get_name, '') or '').strip()
    node['columns'] = [headers.get(c, '') for c in range(n_columns)]
    position = TablePositions(table, n_columns)
    for index in range(safe(table.get_child_count, 0)):
        child = safe(lambda index=index: table.get_child_at_index(index))
        states = alive_state(child) if child is not None else None
        if states is None:
            continue
        child_role = role_of(child)
        if child_role == 'table column header':
            position.header_seen()
        elif not states.contains(S.SHOWING):
            continue
        built = node_of(child, walk, states)
        if built is None:
            if walk.truncated:
                break
            continue
        if child_role != 'table column header':
            row, column = position.of(index)
            if row >= 0:
                built['row'] = row
            if column >= 0:
                built['column'] = column
                if headers.get(column):
                    built['columnHeader'] = headers[column]
        node['children'].append(built)
        if walk.truncated:
            break


class TablePositions:
    """Row and column of a table's child. Toolkits list cells row by row after the headers, so
    positions are counted, and checked against the table once per row (a round trip per cell
    otherwise); a table that lists them otherwise is asked for every cell."""

    def __init__(self, table, n_columns):
        self.table = table
        self.n_columns = n_columns
        self.headers = 0
        self.counted = n_columns > 0

    def header_seen(self):
        self.headers += 1

    def asked(self, index):
        row = safe(lambda: self.table.get_row_at_index(index), -1)
        column = safe(lambda: self.table.get_column_at_index(index), -1)
        return (-1 if row is None else row), (-1 if column is None else column)

    def of(self, index):
        if not self.counted:
            return self.asked(index)
        offset = index - self.headers
        row, column = divmod(offset, self.n_columns)
        if column == 0 and self.asked(index) != (row, column):
            self.counted = False
            return self.asked(index)
        return row, column


# ── the helper's state: refs of the latest snapshot per window, change counters per app ──────
class State:
    def __init__(self):
        self.generation = 0
        self.refs = {}  # window id → (generation, {index: accessible})
        self.changes = {}  # app bus name → events seen
        self.last_event = {}  # app bus name → monotonic time of its latest event
        self.seen = {}  # window id → changes[bus] at its latest snapshot or wait
        self.waiters = []  # callables (bus or None) → True when done
        self.launched = {}  # pid → Popen


STATE = State()


def snapshot(args):
    wid = args['windowId']
    budget = int(args.get('maxElements') or 2000)
    win, app, role, states = find_window(wid)
    bus = bus_of(win)
    STATE.seen[wid] = STATE.changes.get(bus, 0)
    STATE.generation += 1
    walk = Walk(budget, STATE.generation)
    started = time.monotonic()
    root = node_of(win, walk)
    if root is None:
        raise Fail('WINDOW_NOT_FOUND', f'The window {wid} closed while it was being read')
    # Dialogs of the same app are part of what the window shows (a modal one blocks it).
    for dialog, _, _ in modal_dialogs(app, exclude_path=win.path):
        if walk.truncated:
            break
        built = node_of(dialog, walk)
        if built is not None:
            root['children'].append(built)
    STATE.refs[wid] = (walk.generation, walk.refs)
    return {
        'window': window_info(win, app, role, states),
        'root': root,
        'truncated': walk.truncated,
        'elementCount': walk.count,
        'tookMs': round((time.monotonic() - started) * 1000, 1),
    }


def resolve(wid, ref):
    generation, _, index = ref.partition(':')
    entry = STATE.refs.get(wid)
    if entry is None or str(entry[0]) != generation or not index.isdigit():
        raise Fail('STALE_REF', f'Ref {ref} is not from the latest snapshot of this window')
    acc = entry[1].get(int(index))
    if acc is None or alive_state(acc) is None:
        raise Fail('STALE_REF', f'The element of ref {ref} is gone: take a new snapshot')
    return acc
