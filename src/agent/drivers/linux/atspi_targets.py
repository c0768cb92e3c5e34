# What an input event happened on, for "show me" (atspi_record): the element under a click's point
# or with the keyboard focus, lifted to what a person operated (a combo box for its arrow button, a
# button for the label inside it), and described as a snapshot describes it so the host can map
# it with the snapshot's own mapping.
from atspi_common import (
    CONTROL_ROLES, ITEM_ROLES, LAYOUT_ROLES, WINDOW_ROLES, S, SCREEN, alive_state, bus_of, rect, role_of, safe, text_of,
)
from atspi_tree import Walk, children_of, node_of

INTERACTIVE_ROLES = CONTROL_ROLES | ITEM_ROLES | {'list item', 'option', 'icon'}
# What a password entry shows instead of its characters (GTK's ●, Qt's •).
BULLETS = set('●•∙⚫')


def same(a, b):
    return a is not None and b is not None and bus_of(a) == bus_of(b) and a.path == b.path


def key_of(acc):
    return (bus_of(acc), acc.path)


def ancestor(acc, roles, depth):
    node = acc
    for _ in range(depth):
        node = safe(node.get_parent)
        if node is None:
            return None
        if role_of(node) in roles:
            return node
    return None


def meaningful(acc):
    """What a person acted on, for an element the toolkit reports: a combo box or spin button for
    their inner buttons and entries, the nearest control or item for a label inside one."""
    role = role_of(acc)
    if role not in ITEM_ROLES and role not in ('list item', 'option'):
        outer = ancestor(acc, ('combo box', 'spin button'), 3)
        if outer is not None:
            return outer
    node = acc
    for _ in range(12):
        if node is None or role_of(node) in WINDOW_ROLES or role_of(node) == 'application':
            break
        if role_of(node) in INTERACTIVE_ROLES or (safe(node.get_n_actions, 0) or 0) > 0:
            return node
        node = safe(node.get_parent)
    # Nothing to operate: a named label or image still says where the click was.
    if role not in LAYOUT_ROLES and role not in WINDOW_ROLES and ((safe(acc.get_name, '') or '').strip() or (text_of(acc, 200) or '').strip()):
        return acc
    return None


def is_secret(acc, role=None):
    """A password field, or one showing bullets instead of what it holds (read only to tell)."""
    if (role or role_of(acc)) == 'password text':
        return True
    states = alive_state(acc)
    if states is None or not states.contains(S.EDITABLE):
        return False
    text = text_of(acc, 200) or ''
    return bool(text) and set(text) <= BULLETS


def target_of(acc, origin, point=None):
    """The element as a snapshot has it (its node under its parent, mapped by the host), and where."""
    walk = Walk(80, 't')
    node = node_of(acc, walk)
    if node is None:
        return None
    strip_values(node)
    parent = safe(acc.get_parent)
    parent_role = role_of(parent) if parent is not None else 'filler'
    if node['role'] in ('menu item', 'list item') and parent is not None and ancestor(parent, ('combo box',), 2):
        node['role'] = 'option'  # a combo box's popup list: its options, as snapshots name them
    tree = {'ref': 'parent', 'role': parent_role, 'name': '', 'states': [], 'children': [node]}
    out = {'tree': tree, 'ref': node['ref']}
    if point is None:
        bounds = node.get('bounds') or rect(acc)
        if bounds:
            point = (bounds['x'] + bounds['width'] / 2 - origin[0], bounds['y'] + bounds['height'] / 2 - origin[1])
    if point is not None:
        out['point'] = {'x': round(point[0]), 'y': round(point[1])}
    return out


def strip_values(node):
    """What fields hold travels as the event's value (never for a secret), not inside its target."""
    if node['role'] != 'combo box':
        node.pop('value', None)
    for child in node['children']:
        strip_values(child)


def item_text(item):
    name = (safe(item.get_name, '') or '').strip()
    if name:
        return name
    text = (text_of(item, 500) or '').strip()
    if text:
        return text
    return ' '.join(t for t in (item_text(c) for c in children_of(item)) if t)


def find_focused(acc, budget=None):
    budget = budget if budget is not None else [600]
    for child in children_of(acc):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        states = alive_state(child)
        if states is not None and states.contains(S.FOCUSED):
            return child
        found = find_focused(child, budget)
        if found is not None:
            return found
    return None


def shown_windows(app):
    """The app's windows on screen, popups (combo lists, menus) included, top-most last."""
    for i in range(safe(app.get_child_count, 0) or 0):
        win = safe(lambda i=i: app.get_child_at_index(i))
        states = alive_state(win) if win is not None else None
        if states is not None and states.contains(S.SHOWING):
            yield win, states


def contains(bounds, x, y):
    return bounds is not None and bounds['x'] <= x < bounds['x'] + bounds['width'] and bounds['y'] <= y < bounds['y'] + bounds['height']


def window_at(app, x, y, main):
    """The app's window under a screen point: a popup or dialog over the main window wins."""
    over = [w for w, _ in shown_windows(app) if not same(w, main) and contains(rect(w), x, y)]
    if over:
        return over[-1]
    return main if contains(rect(main), x, y) else None


MENU_ITEM_ROLES = {'menu item', 'check menu item', 'radio menu item', 'tear off menu item'}
# Containers a window's menu bar is not inside of, and that may hold thousands of children.
NO_MENU_BAR_INSIDE = {'table', 'tree table', 'tree', 'list', 'list box', 'text', 'document text', 'terminal',
                      'page tab list', 'scroll pane', 'viewport'}
MENU_BARS = {}  # window key → its menu bars, found once per window


def menu_bars(top, budget=250):
    """The window's menu bars: near its top, outside its content."""
    key = key_of(top)
    if key in MENU_BARS:
        known = [bar for bar in MENU_BARS[key] if alive_state(bar) is not None]
        if len(known) == len(MENU_BARS[key]):
            return known  # also a window with none: dialogs rarely have a menu bar
    found, queue, seen = [], [(top, 0)], 0
    while queue and seen < budget:
        node, depth = queue.pop(0)
        seen += 1
        for child in children_of(node):
            role = role_of(child)
            if role == 'menu bar':
                found.append(child)
            elif depth < 6 and role not in NO_MENU_BAR_INSIDE and role not in MENU_ITEM_ROLES:
                queue.append((child, depth + 1))
    MENU_BARS[key] = found
    return found


# A menu that drops from a menu bar: GTK's is a 'menu', Qt's a 'popup menu' under its item.
MENUS = {'menu', 'popup menu'}


def open_menu_item_at(top, x, y):
    """The item under the point in a menu dropped from the window's menu bar. An open menu lies
    over the window's content, but the content is what a hit test from the window finds there (a
    text area under File's menu), so open menus are looked at first. A menu's items show only while
    it is open; an item that opens a submenu is itself a 'menu' (GTK), or holds a 'popup menu' (Qt)."""
    hit, stack = None, [bar for bar in menu_bars(top)]
    while stack:
        node = stack.pop()
        in_menu = role_of(node) in MENUS
        for child in children_of(node):
            role = role_of(child)
            if role not in MENU_ITEM_ROLES and role not in MENUS:
                continue
            if in_menu and contains(rect(child), x, y):
                hit = child  # a submenu's item beats the item of the menu it opened from
            stack.append(child)
    return hit


def click_target(top, x, y):
    item = open_menu_item_at(top, x, y)
    if item is not None:
        return meaningful(item)
    node = top
    for _ in range(40):
        child = safe(lambda node=node: node.get_accessible_at_point(int(x), int(y), SCREEN))
        if child is None or same(child, node):
            break
        node = child
    # Some containers answer no child at a point (GTK's tool bars, a notebook's page under its
    # tab): the smallest showing element whose extents hold the point is the one clicked.
    deeper = child_at(node, x, y)
    if deeper is not None:
        node = deeper
    return None if same(node, top) else meaningful(node)


def child_at(node, x, y, budget=1500):
    """The smallest showing descendant whose extents hold the point, by walking (bounded). A
    container's own extents may not hold its children (a notebook's page sits under its tab)."""
    found, area, stack, seen = None, None, [node], 0
    while stack and seen < budget:
        current = stack.pop()
        seen += 1
        for child in children_of(current):
            states = alive_state(child)
            if states is None or not states.contains(S.SHOWING):
                continue
            stack.append(child)
            bounds = rect(child)
            if contains(bounds, x, y) and (area is None or bounds['width'] * bounds['height'] <= area):
                found, area = child, bounds['width'] * bounds['height']
    return found
