# Actions for the AT-SPI helper: click, fill, select, check, keys, focus and read on an element of
# the latest snapshot, through the Action, EditableText, Selection and Value interfaces, falling
# back to synthetic input (XTest) where an app offers none. Also window focus and screenshots.
import base64
import os

from atspi_common import (
    CLICK_ACTIONS, COMBO_ROLES, S, SKIPPED_ROLES, TABLE_ROLES, Atspi, Fail, alive_state, bus_of, interfaces,
    number_text, rect, role_of, safe, text_of,
)
from atspi_ready import focus_and_wait, into_view
from atspi_tree import app_pid, app_windows, children_of, find_window, resolve
from atspi_x11 import X


# ── actions ──────────────────────────────────────────────────────────────────────────────────
def window_of(acc):
    node, depth = acc, 0
    while node is not None and depth < 200:
        parent = safe(node.get_parent)
        if parent is None or role_of(parent) == 'application':
            return node
        node, depth = parent, depth + 1
    return node


def check_reachable(acc):
    """A modal dialog of the app blocks every other window of it, as it does for a user."""
    states = alive_state(acc)
    if states is None:
        raise Fail('STALE_REF', 'The element is gone: take a new snapshot')
    if not states.contains(S.SENSITIVE) or not states.contains(S.ENABLED):
        raise Fail('ELEMENT_DISABLED', f'The {role_of(acc)} "{safe(acc.get_name, "")}" is disabled')
    top = window_of(acc)
    app = safe(acc.get_application)
    if app is None or top is None:
        return
    # The app's latest modal window is the one on top (a dialog a dialog opened, "Account name"
    # over "Manage Accounts"): it takes input, every other window of the app waits for it.
    # Without a window manager no window is reliably 'active', so the order decides.
    modals = [dialog for dialog, _, dialog_states in app_windows(app) if dialog_states.contains(S.MODAL)]
    if modals and modals[-1].path != top.path:
        title = safe(modals[-1].get_name, '') or 'a dialog'
        raise Fail('BLOCKED_BY_DIALOG', f'The modal dialog "{title}" is open: act on it first')


def action_names(acc):
    if 'Action' not in interfaces(acc):
        return []
    return [(safe(lambda i=i: acc.get_action_name(i), '') or '').lower() for i in range(safe(acc.get_n_actions, 0))]


def do_named_action(acc, wanted):
    names = action_names(acc)
    for name in wanted:
        if name in names:
            if not acc.do_action(names.index(name)):
                raise Fail('UNSUPPORTED_ACTION', f'The app refused the "{name}" action')
            return True
    return False


def center(acc):
    bounds = rect(acc)
    if bounds is None:
        raise Fail('ELEMENT_OBSCURED', f'The {role_of(acc)} "{safe(acc.get_name, "")}" is not on screen')
    return bounds['x'] + bounds['width'] / 2, bounds['y'] + bounds['height'] / 2


def synthetic_click(acc, button=1, count=1):
    states = alive_state(acc)
    if states is not None and not states.contains(S.SHOWING):
        safe(lambda: acc.scroll_to(Atspi.ScrollType.ANYWHERE))
    x, y = center(acc)
    # An item of an open menu: the menu holds the pointer, and raising the window under it would
    # close the menu before the click lands.
    parent = safe(acc.get_parent)
    if parent is None or role_of(parent) not in ('menu', 'popup menu'):
        raise_window_of(acc)
    X.click(x, y, button, count)


def raise_window_of(acc):
    top = window_of(acc)
    app = safe(acc.get_application)
    if top is None or app is None or not os.environ.get('DISPLAY'):
        return
    xwin = safe(lambda: X.window_for(app_pid(app), rect(top)))
    if xwin is not None:
        safe(lambda: X.focus(xwin))


def select_child_of_parent(acc):
    parent = safe(acc.get_parent)
    if parent is None or 'Selection' not in interfaces(parent):
        return False
    index = safe(acc.get_index_in_parent, -1)
    return index is not None and index >= 0 and bool(safe(lambda: parent.select_child(index), False))


def act_click(acc, action):
    button = 3 if action.get('button') == 'right' else 1
    count = int(action.get('clickCount') or 1)
    role = role_of(acc)
    if button != 1 or count > 1:
        return synthetic_click(acc, button, count)
    if role in ('table cell', 'list item', 'tree item'):
        # A user's click on a row selects it ('activate' would open it, like a double click).
        states = alive_state(acc)
        if states is not None and states.contains(S.SHOWING) and rect(acc):
            if X.has_xtest():
                # Raised first: a wheel turned over another window of the app would go to it.
                raise_window_of(acc)
                into_view(acc)
            return synthetic_click(acc)
        if select_child_of_parent(acc):
            return None
    if role == 'page tab' and select_child_of_parent(acc):
        return None
    # An item of an open menu that opens a submenu ("Business › Customer"): GTK ignores X input on
    # it until the pointer has moved inside the menu, and opens it on its accessible action, which
    # runs no handler of the app (tests: test/agent/native/menus.test.ts).
    parent = safe(acc.get_parent) if role == 'menu' else None
    if parent is not None and role_of(parent) == 'menu' and do_named_action(acc, CLICK_ACTIONS):
        return None
    # A person's click when the control is on screen: GTK runs a button's or menu item's handler
    # from the Action interface's idle callback, and a handler that runs a modal dialog
    # (gtk_dialog_run: HomeBank's "Manage Accounts", its "Add transaction") then leaves the app
    # unanswering on the accessibility bus until that dialog closes. X input has no such effect.
    states = alive_state(acc)
    if states is not None and states.contains(S.SHOWING) and rect(acc) and os.environ.get('DISPLAY') and X.has_xtest():
        return synthetic_click(acc)
    if do_named_action(acc, CLICK_ACTIONS):
        return None
    return synthetic_click(acc)


def act_fill(acc, value):
    role = role_of(acc)
    ifaces = interfaces(acc)
    states = alive_state(acc)
    if role in COMBO_ROLES:
        entry = next((c for c in children_of(acc, everything=True) if 'EditableText' in interfaces(c)), None)
        if entry is None:
            return act_select(acc, [value])
        acc, ifaces, states = entry, interfaces(entry), alive_state(entry)
    if 'Value' in ifaces:
        # Spin buttons and sliders hold numbers: set as a value, so the app sees a valid one.
        return set_number(acc, value)
    if 'EditableText' in ifaces:
        if states is not None and not states.contains(S.EDITABLE):
            raise Fail('UNSUPPORTED_ACTION', f'The {role} is read-only')
        # Focused first, as a person clicks into a box before typing: an app may load the box
        # afresh when it gains focus (a spreadsheet's formula bar takes the cell's content when
        # editing starts), which would undo text set before.
        typing = bool(os.environ.get('DISPLAY')) and X.has_xtest()
        if typing:
            raise_window_of(acc)
            typing = focus_and_wait(acc)
        if acc.set_text_contents(value):
            # Apps that react to typing only (Osmo enables its OK on key presses) see a key too:
            # End, which moves the caret and changes nothing.
            if typing:
                X.press_chord('End')
            return None
    if states is not None and states.contains(S.EDITABLE):
        # Editable without EditableText (or it refused): type like a user (select all, then the text).
        safe(acc.grab_focus)
        raise_window_of(acc)
        X.press_chord('Control+a')
        if value:
            X.type_text(value)
        else:
            X.press_chord('Delete')
        return None
    raise Fail('UNSUPPORTED_ACTION', f'Cannot fill a {role}')


def set_number(acc, value):
    try:
        number = float(value.strip())
    except ValueError as error:
        raise Fail('UNSUPPORTED_ACTION', f'"{value}" is not a number') from error
    low, high = safe(acc.get_minimum_value), safe(acc.get_maximum_value)
    if low is not None and high is not None and not (low <= number <= high):
        raise Fail('UNSUPPORTED_ACTION', f'{value} is outside {number_text(low)}…{number_text(high)}')
    if not acc.set_current_value(number):
        raise Fail('UNSUPPORTED_ACTION', f'The app refused the value {value}')
    return None


def option_items(acc):
    role = role_of(acc)
    if role in COMBO_ROLES:
        for child in children_of(acc, everything=True):
            if role_of(child) in ('menu', 'list', 'list box', 'window'):
                return child, [c for c in children_of(child, everything=True) if role_of(c) not in SKIPPED_ROLES]
        return acc, []
    if role in TABLE_ROLES:
        return acc, [c for c in children_of(acc, everything=True) if role_of(c) == 'table cell']
    return acc, list(children_of(acc, everything=True))


def item_label(item):
    name = (safe(item.get_name, '') or '').strip()
    if name:
        return name
    text = (text_of(item, 500) or '').strip()
    if text:
        return text
    labels = []
    for child in children_of(item):
        label = item_label(child)
        if label:
            labels.append(label)
    return ' '.join(labels)


def match_option(items, wanted):
    labels = [item_label(item) for item in items]
    for exact in (True, False):
        for index, label in enumerate(labels):
            if (label == wanted) if exact else (label.strip().casefold() == wanted.strip().casefold()):
                return index, items[index]
    shown = ', '.join(f'"{label}"' for label in labels[:30] if label)
    raise Fail('OPTION_NOT_FOUND', f'No option "{wanted}"; the options are {shown or "none"}')


def act_select(acc, values):
    role = role_of(acc)
    container, items = option_items(acc)
    if not items:
        raise Fail('UNSUPPORTED_ACTION', f'The {role} has no options to select')
    chosen = [match_option(items, value) for value in values]
    if role in COMBO_ROLES:
        index, item = chosen[-1]
        if 'Selection' in interfaces(acc) and safe(lambda: acc.select_child(index), False):
            return None
        # No Selection interface: open the list and pick the item, as a user does.
        do_named_action(acc, ('press', 'open', 'click'))
        if not do_named_action(item, CLICK_ACTIONS):
            synthetic_click(item)
        return None
    target = container if 'Selection' in interfaces(container) else None
    if target is None:
        for _, item in chosen:
            act_click(item, {})
        return None
    if len(chosen) > 1:
        safe(target.clear_selection)
    for _, item in chosen:
        index = safe(item.get_index_in_parent, -1)
        if index is None or index < 0 or not safe(lambda index=index: target.select_child(index), False):
            act_click(item, {})
    return None


def is_checked(acc):
    states = alive_state(acc)
    return states is not None and (states.contains(S.CHECKED) or states.contains(S.PRESSED))


def act_check(acc, wanted, finish_later):
    if is_checked(acc) == wanted:
        return {'checked': wanted}
    role = role_of(acc)
    if not wanted and role in ('radio button', 'radio menu item'):
        raise Fail('UNSUPPORTED_ACTION', 'A radio button is unchecked by choosing another one')
    if not do_named_action(acc, ('toggle', 'click', 'press', 'activate')):
        synthetic_click(acc)
    bus = bus_of(acc)
    # The app applies the action from its own main loop: wait for the state to turn, by events.
    finish_later(bus, lambda: is_checked(acc) == wanted, lambda: {'checked': is_checked(acc)}, 3000)
    return None


def act_read(acc):
    result = {}
    ifaces = interfaces(acc)
    text = text_of(acc) if 'Text' in ifaces else None
    name = (safe(acc.get_name, '') or '').strip()
    role = role_of(acc)
    if role == 'password text':
        text = ''
    result['text'] = text if text is not None and (text.strip() or not name) else name
    if not result['text'].strip() and 'EditableText' not in ifaces:
        # A container that only holds texts (a message box's title and message) reads as them,
        # the way the snapshot shows it as one text.
        result['text'] = ' '.join(shown_texts(acc)).strip()
    if 'Value' in ifaces and 'Text' not in ifaces:
        current = safe(acc.get_current_value)
        if current is not None:
            result['value'] = number_text(current)
    elif 'EditableText' in ifaces and text is not None:
        result['value'] = text
    elif role in COMBO_ROLES:
        current = safe(lambda: acc.get_selected_child(0))
        result['value'] = (safe(current.get_name, '') or '').strip() if current is not None else name
    states = alive_state(acc)
    if states is not None and (states.contains(S.CHECKABLE) or role in ('check box', 'radio button', 'toggle button', 'check menu item', 'radio menu item')):
        result['checked'] = is_checked(acc)
    return result


def shown_texts(acc, depth=0):
    """The names (else texts) of the showing elements inside, in the toolkit's order."""
    out = []
    for child in children_of(acc):
        own = (safe(child.get_name, '') or '').strip() or ((text_of(child) or '').strip() if 'Text' in interfaces(child) else '')
        if own:
            out.append(' '.join(own.split()))
        elif depth < 8:
            out.extend(shown_texts(child, depth + 1))
    return out


def act_keys(acc, keys):
    if acc is not None:
        safe(acc.grab_focus)
        raise_window_of(acc)
    for chord in keys.split():
        X.press_chord(chord)


def act(args, finish_later):
    wid = args['windowId']
    action = args['action']
    kind = action.get('kind')
    ref = action.get('ref')
    win, app, _, _ = find_window(wid)
    if ref is None:
        if kind == 'keys':
            raise_window_of(win)
            act_keys(None, action.get('keys', ''))
            return settle_later(finish_later, bus_of(win), {})
        if kind == 'focus':
            focus_window(win, app)
            return {}
        raise Fail('UNSUPPORTED_ACTION', f'{kind} needs a ref')
    acc = resolve(wid, ref)
    if kind == 'read':
        return act_read(acc)
    check_reachable(acc)
    bus = bus_of(acc)
    if kind == 'click':
        act_click(acc, action)
    elif kind == 'fill':
        act_fill(acc, str(action.get('value', '')))
    elif kind == 'select':
        act_select(acc, [str(v) for v in action.get('values') or []])
    elif kind == 'check':
        return act_check(acc, bool(action.get('checked')), finish_later)
    elif kind == 'keys':
        act_keys(acc, action.get('keys', ''))
    elif kind == 'focus':
        if not safe(acc.grab_focus, False):
            synthetic_click(acc)
        return {}
    else:
        raise Fail('UNSUPPORTED_ACTION', f'Unknown action {kind}')
    return settle_later(finish_later, bus, {})


def settle_later(finish_later, bus, result):
    finish_later(bus, None, lambda: result, 3000)
    return None


def focus(args, finish_later):
    win, app, _, _ = find_window(args['windowId'])
    focus_window(win, app)
    # The app takes focus from its own main loop: answer once it has (its events have settled).
    finish_later(bus_of(win), None, lambda: {}, 2000)


def focus_window(win, app):
    xwin = X.window_for(app_pid(app), rect(win)) if os.environ.get('DISPLAY') else None
    if xwin is not None:
        X.focus(xwin)
    safe(win.grab_focus)


# ── screenshots, launching and closing apps ──────────────────────────────────────────────────
def screenshot(args):
    win, app, _, _ = find_window(args['windowId'])
    bounds = rect(win)
    if bounds is None:
        raise Fail('WINDOW_NOT_FOUND', 'The window has no size on screen (minimised or hidden)')
    data, width, height = X.screenshot(bounds, int(args.get('quality') or 75))
    return {'jpeg': base64.b64encode(data).decode('ascii'), 'width': width, 'height': height}
