# "Show me" for the AT-SPI helper: while a person demonstrates a task, what they do in a window is
# sent to the host as unsolicited event lines ({"event": "input", "watch": id, …}, protocol in
# src/protocol/helper.ts HELPER_EVENTS); a remote viewer's input (the dashboard's live preview) is
# performed as real X input at window coordinates.
#
# Where each kind comes from: values, checks and selections from the app's own AT-SPI events;
# clicks and keys sent through `input` from the point and the focus we know as we send them; a
# person's own clicks and keys at the PC from the X RECORD extension (atspi_xrecord), which sees
# every client's device events; the helper's own XTest input is told apart and not reported twice.
# What each event happened on is found and described by atspi_targets.
#
# A password field's characters are never read, logged or sent: its events say `secret` only.
import bisect
import time
from collections import deque

from atspi_common import Atspi, Fail, GLib, S, alive_state, bus_of, log, number_text, rect, role_of, safe, send, text_of
from atspi_targets import (
    ancestor, click_target, find_focused, is_secret, item_text, key_of, meaningful, same, shown_windows, target_of,
    window_at,
)
from atspi_tree import app_pid, app_windows, find_window
from atspi_x11 import X
from atspi_xrecord import XRecord, key_name

# The contract's key names (RemoteInput) → what press_chord understands.
REMOTE_KEYS = {'Enter', 'Tab', 'Escape', 'Backspace', 'Delete', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight',
               'Home', 'End', 'PageUp', 'PageDown', 'Space'}
# Keys that edit or move inside a text field: what they do shows up as the field's new value.
EDITING_KEYS = {'Backspace', 'Delete', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp',
                'PageDown', 'Space'}
CHECK_ROLES = {'check box', 'radio button', 'toggle button', 'switch', 'check menu item', 'radio menu item'}
SELECT_ROLES = {'combo box', 'list box', 'list', 'table', 'tree table', 'tree'}
NUMBER_ROLES = {'spin button', 'slider', 'dial'}
EVENT_TYPES = ['object:text-changed', 'object:value-changed', 'object:state-changed:checked',
               'object:state-changed:focused', 'object:selection-changed']
# A check or choice this long after a click on its control is still that click's doing.
CLICK_EFFECT_S = 4.0
# A text change this long after the person's last key press is still that typing's doing.
KEY_EFFECT_S = 2.0
# Bursts of text changes (a word typed, a selection replaced) are read once they pause this long.
COALESCE_MS = 80
# Events wait this long before they are sent, in the order they happened: a press RECORD reports
# may reach the main loop after the app's events about what it did (the check box it checked).
HOLD_MS = 150

WATCHES = {}


class Watch:
    def __init__(self, watch_id, wid, win, app):
        self.id = watch_id
        self.wid = wid
        self.win = win
        self.app = app
        self.bus = bus_of(win)
        self.focused = None
        # (when, element) of the latest focus changes: a key a person pressed is reported on what
        # had the focus when it was pressed, not on where it moved the focus to (Tab).
        self.focus_log = deque(maxlen=16)
        self.pending = {}  # key → accessible whose value changed, read once typing pauses
        self.pending_since = None
        self.last = {}  # (kind, key) → the value reported last
        self.timer = None
        self.outbox = []  # (when it happened, seq, line), oldest first
        self.sent_seq = 0
        self.out_timer = None
        # (when, screen x, y) of the latest clicks a person made (at the PC or remotely).
        self.clicks = deque(maxlen=2)
        # When the person last pressed a key (typing, at the PC or remotely).
        self.last_key = float('-inf')

    def clicked_at(self, x, y, at=None):
        self.clicks.append((time.monotonic() if at is None else at, x, y))

    def persons_doing(self, acc):
        """A check, radio or drop-down the person set: it has the focus, or one of their latest two
        clicks (the drop-down, then its option) was on it. One the app sets by itself (a form's
        defaults as it opens, a list it fills) is neither."""
        states = alive_state(acc)
        if states is not None and (states.contains(S.FOCUSED) or same(acc, self.focused) or self.focus_within(acc)):
            return True
        box = rect(acc)
        now = time.monotonic()
        return box is not None and any(
            now - when <= CLICK_EFFECT_S and box['x'] <= x < box['x'] + box['width'] and box['y'] <= y < box['y'] + box['height']
            for when, x, y in self.clicks)

    def origin(self):
        bounds = rect(self.win)
        return (bounds['x'], bounds['y']) if bounds else (0, 0)

    def emit(self, kind, acc=None, point=None, target=None, at=None, **fields):
        """One event, sent in the order of `at` (when it happened; default now). `target` when it
        was read before the input that may close the window."""
        if kind != 'input':
            self.flush()
        event = {'event': 'input', 'watch': self.id, 'kind': kind, **fields}
        if target is None and acc is not None:
            target = safe(lambda: target_of(acc, self.origin(), point))
        if target is not None:
            event['target'] = target
        self.sent_seq += 1
        bisect.insort(self.outbox, (time.monotonic() if at is None else at, self.sent_seq, event))
        self.schedule_release()

    def schedule_release(self):
        if self.out_timer is not None or not self.outbox:
            return
        wait = self.outbox[0][0] + HOLD_MS / 1000 - time.monotonic()
        self.out_timer = GLib.timeout_add(max(1, int(wait * 1000)), self.on_release)

    def on_release(self):
        self.out_timer = None
        self.release(time.monotonic() - HOLD_MS / 1000)
        self.schedule_release()
        return False

    def release(self, upto=None):
        while self.outbox and (upto is None or self.outbox[0][0] <= upto):
            send(self.outbox.pop(0)[2])

    # ── from the app's events ──
    def on_event(self, event, source):
        kind = event.type
        if kind.startswith('object:state-changed:focused'):
            if event.detail1:
                self.focused = source
                self.focus_log.append((time.monotonic(), source))
        elif kind.startswith(('object:text-changed', 'object:value-changed')):
            self.changed(source)
        elif kind.startswith('object:state-changed:checked'):
            self.checked(source, bool(event.detail1))
        elif kind.startswith('object:selection-changed'):
            self.selected(source)

    def changed(self, acc):
        role = role_of(acc)
        states = alive_state(acc)
        if states is None or (role not in NUMBER_ROLES and not states.contains(S.EDITABLE)):
            return  # a label or status the app rewrote: not the person's doing
        if role not in NUMBER_ROLES and not states.contains(S.FOCUSED) and not same(acc, self.focused):
            # A field the app filled in itself (a page it showed): a person types where the focus
            # is. Numbers also change under the wheel, without the focus.
            return
        if role not in NUMBER_ROLES and time.monotonic() - self.last_key > KEY_EFFECT_S:
            # The focus alone is not enough: an app puts it in a box and fills or clears it by itself
            # (a search box after unlocking, a date it defaults). A person's text comes with keys.
            return
        if not self.pending:
            self.pending_since = time.monotonic()
        self.pending[key_of(acc)] = acc
        if self.timer is None:
            self.timer = GLib.timeout_add(COALESCE_MS, self.on_timer)

    def on_timer(self):
        self.timer = None
        self.flush()
        return False

    def flush(self):
        if self.timer is not None:
            GLib.source_remove(self.timer)
            self.timer = None
        pending, self.pending, at = self.pending, {}, self.pending_since
        for key, acc in pending.items():
            role = role_of(acc)
            if alive_state(acc) is None:
                continue
            if is_secret(acc, role):
                self.emit('input', acc, secret=True, at=at)
                continue
            # A spin button's text is what was typed; its number changes only once it is committed.
            text = text_of(acc)
            current = safe(acc.get_current_value) if role in NUMBER_ROLES and text is None else None
            value = number_text(current) if current is not None else (text or '')
            if self.last.get(('input', key)) == value:
                continue
            self.last[('input', key)] = value
            self.emit('input', acc, value=value, at=at)

    def checked(self, acc, on):
        role = role_of(acc)
        if role not in CHECK_ROLES or (role in ('radio button', 'radio menu item') and not on):
            return  # a radio that went off is the other one going on
        if ancestor(acc, ('combo box',), 2):
            return  # a combo box's own arrow button
        value = 'true' if on else 'false'
        if self.last.get(('check', key_of(acc))) == value:
            return
        if not self.persons_doing(acc):
            self.last[('check', key_of(acc))] = value
            return  # the app set it by itself (a form's defaults as it opens)
        self.last[('check', key_of(acc))] = value
        self.emit('check', acc, value=value)

    def selected(self, acc):
        role = role_of(acc)
        if role not in SELECT_ROLES:
            return  # a menu's selection is only its highlighted item
        chosen = safe(lambda: acc.get_selected_child(0))
        if role == 'combo box':
            value = (safe(chosen.get_name, '') if chosen is not None else '') or safe(acc.get_name, '') or ''
        else:
            value = item_text(chosen) if chosen is not None else ''
        value = value.strip()
        if not value or self.last.get(('select', key_of(acc))) == value:
            return
        self.last[('select', key_of(acc))] = value
        if role == 'combo box' and not self.persons_doing(acc):
            return  # the app chose it by itself (its default, a list it filled)
        if role != 'combo box':
            # A list or table the app selects a row in by itself (the record just added) is not
            # the person's doing: a person's choice comes with the focus in it.
            states = alive_state(acc)
            if states is None or not (states.contains(S.FOCUSED) or same(acc, self.focused) or self.focus_within(acc)):
                return
        self.emit('select', acc, value=value)

    def focus_within(self, acc):
        """The focused element is inside `acc` (a table's focused cell)."""
        node = self.focused
        for _ in range(12):
            if node is None:
                return False
            if same(node, acc):
                return True
            node = safe(node.get_parent)
        return False

    # ── clicks and keys ──
    def focus_target(self, at=None):
        if at is not None:
            before = [acc for when, acc in self.focus_log if when <= at]
            if before and alive_state(before[-1]) is not None:
                return before[-1]
        if self.focused is not None and alive_state(self.focused) is not None:
            return self.focused
        self.focused = find_focused(self.win)
        return self.focused

    def key_target(self, name, focused):
        """What a key press will be reported on: False when it is not reported at all."""
        if name in EDITING_KEYS and focused is not None:
            states = alive_state(focused)
            if states is not None and (states.contains(S.EDITABLE) or role_of(focused) in NUMBER_ROLES):
                return False  # the field's new value says what it did
        target = meaningful(focused) if focused is not None else None
        return safe(lambda: target_of(target, self.origin())) if target is not None else None

    def device_click(self, x, y, at):
        top = window_at(self.app, x, y, self.win)
        if top is None:
            return  # another app's window, or the desktop
        acc = click_target(top, x, y)
        if acc is None:
            return  # a click on nothing a person can operate (the window's background)
        origin = self.origin()
        self.clicked_at(x, y, at)
        self.emit('click', acc, point=(x - origin[0], y - origin[1]), at=at)

    def keyed(self, at=None):
        self.last_key = time.monotonic() if at is None else at

    def device_key(self, name, at):
        # Keys count while the app has the keyboard (one of its windows is active).
        if not any(states.contains(S.ACTIVE) for _, states in shown_windows(self.app)):
            return
        target = self.key_target(name, self.focus_target(at))
        if target is not False:
            self.emit('key', target=target, key=name, at=at)

    def close(self):
        """Sends what is still held: nothing of this watch comes after its unwatch answer."""
        self.flush()
        self.release()
        if self.out_timer is not None:
            GLib.source_remove(self.out_timer)
            self.out_timer = None


# ── the listener, RECORD and the commands ────────────────────────────────────────────────────
class InputSources:
    """The AT-SPI listener and the RECORD reader, running while any watch does."""

    def __init__(self):
        self.listener = None
        self.xrecord = None

    def start(self):
        if self.listener is None:
            self.listener = Atspi.EventListener.new(on_event)
            for kind in EVENT_TYPES:
                self.listener.register(kind)
        if self.xrecord is None:
            self.xrecord = XRecord(on_device_event)
            self.xrecord.start()
        return self.xrecord.reason

    def stop(self):
        if self.listener is not None:
            for kind in EVENT_TYPES:
                safe(lambda kind=kind: self.listener.deregister(kind))
            self.listener = None
        if self.xrecord is not None:
            self.xrecord.stop()
            self.xrecord = None


SOURCES = InputSources()


def on_event(event):
    try:
        source = event.source
        if source is None or not WATCHES:
            return
        bus = bus_of(source)
        for watch in list(WATCHES.values()):
            if watch.bus == bus:
                watch.on_event(event, source)
    except Fail as failure:
        log('debug', 'input event not read', error=failure.message)
    except Exception as error:  # noqa: BLE001 - an odd event must not end the helper
        log('debug', 'input event ignored', error=type(error).__name__)


def on_device_event(kind, detail, x, y, state, at):
    """A press seen by RECORD, on the main loop. The helper's own XTest input is reported by
    `remote_input` already: it is recognised here and skipped."""
    try:
        if X.consume_injected(kind, detail):
            return
        if kind == 'button' and detail == 1:
            for watch in list(WATCHES.values()):
                watch.device_click(x, y, at)
        elif kind == 'key':
            # Any key is typing (what a letter typed does shows as the field's value).
            for watch in list(WATCHES.values()):
                watch.keyed(at)
            name = key_name(X.display, detail, state)
            if name is not None:
                for watch in list(WATCHES.values()):
                    watch.device_key(name, at)
    except Exception as error:  # noqa: BLE001
        log('debug', 'device event ignored', error=f'{type(error).__name__}: {error}')


def watch_input(args):
    watch_id, wid = args['watch'], args['windowId']
    win, app, _, _ = find_window(wid)
    if watch_id in WATCHES:
        raise Fail('BAD_REQUEST', f'The watch {watch_id} is already running')
    watch = Watch(watch_id, wid, win, app)
    WATCHES[watch_id] = watch
    try:
        reason = SOURCES.start()
        watch.focused = find_focused(win)
    except Exception:
        unwatch_input({'watch': watch_id})
        raise
    return {'watch': watch_id, 'deviceInput': reason is None, **({'reason': reason} if reason else {})}


def unwatch_input(args):
    watch = WATCHES.pop(args['watch'], None)
    if watch is not None:
        watch.close()
    if not WATCHES:
        SOURCES.stop()
    return {}


MODIFIERS = {'Ctrl', 'Control', 'Shift', 'Alt', 'Option', 'Meta', 'Cmd'}


def remote_key_ok(key):
    """A named key, F1-F12 or one character, after any modifiers (src/protocol/remote-keys.ts)."""
    if key == '+':
        return True
    parts = [*key[:-2].split('+'), '+'] if len(key) > 1 and key.endswith('++') else key.split('+')
    last = parts.pop() if parts else ''
    if any(m not in MODIFIERS for m in parts):
        return False
    return last in REMOTE_KEYS or len(last) == 1 or (last[:1] == 'F' and last[1:].isdigit() and 1 <= int(last[1:]) <= 12)


def remote_input(args, finish_later):
    win, app, _, _ = find_window(args['windowId'])
    data = args['input']
    kind = data.get('kind')
    bounds = rect(win)
    if bounds is None:
        raise Fail('WINDOW_NOT_FOUND', 'The window has no size on screen (minimised or hidden)')
    if kind == 'key' and not remote_key_ok(str(data.get('key') or '')):
        raise Fail('UNSUPPORTED_ACTION', f'Unknown key "{data.get("key")}"; known: {", ".join(sorted(REMOTE_KEYS))}, '
                   'F1-F12 or one character, after any modifiers (Ctrl+A, Shift+Tab)')
    if kind not in ('click', 'type', 'key', 'scroll'):
        raise Fail('UNSUPPORTED_ACTION', f'Unknown input {kind}')
    if not X.has_xtest():
        raise Fail('UNSUPPORTED_ACTION', 'The X server has no XTest extension for input')
    watches = [w for w in WATCHES.values() if w.bus == bus_of(win)]
    if kind in ('click', 'scroll'):
        x, y = bounds['x'] + float(data['x']), bounds['y'] + float(data['y'])
        top = window_at(app, x, y, win)
        if top is None:
            raise Fail('ELEMENT_OBSCURED', f'({data["x"]}, {data["y"]}) is outside the window')
        # The window clicked gets the keyboard (a dialog over the main window), as a window
        # manager gives it; without one (a bare X server) the focus would stay where it was.
        activate(top, app)
    else:
        # Keys go to the app's latest modal dialog while one is open, as a person's would; else
        # to whichever of its windows has them (an open combo list), else to the window.
        modals = [w for w, _, states in app_windows(app) if states.contains(S.MODAL)]
        if modals:
            activate(modals[-1], app)
        elif not any(states.contains(S.ACTIVE) for _, states in shown_windows(app)):
            activate(win, app)
    if kind in ('click', 'scroll'):
        if kind == 'click':
            # Read before the click: what it does may close the window (OK, Cancel).
            acc = click_target(top, x, y) if watches else None
            point = (float(data['x']), float(data['y']))
            target = safe(lambda: target_of(acc, (bounds['x'], bounds['y']), point)) if acc is not None else None
            for watch in watches:
                watch.flush()
            at = time.monotonic()
            for watch in watches:
                watch.clicked_at(x, y, at)
            X.click(x, y)
            for watch in watches if target is not None else ():
                watch.emit('click', target=target, at=at)
        else:
            delta = float(data.get('deltaY') or 0)
            X.scroll(x, y, 5 if delta > 0 else 4, max(1, min(20, round(abs(delta) / 100))) if delta else 0)
    elif kind == 'type':
        for watch in watches:
            watch.keyed()
        try:
            for char in str(data['text']):
                if char != '\r':
                    X.press_chord({'\n': 'Return', '\t': 'Tab'}.get(char, char))
        except Fail as failure:
            # Its message names the character: what is typed may be a password.
            raise Fail(failure.code, 'A character of the text cannot be typed on this X server') from None
        for watch in watches:
            watch.keyed()  # a long text: its last changes follow its last key
    else:
        name = data['key']
        targets = {w.id: w.key_target(name, w.focus_target()) for w in watches}
        for watch in watches:
            watch.flush()
        at = time.monotonic()
        for watch in watches:
            watch.keyed(at)
        X.press_chord(name)
        for watch in watches:
            if targets[watch.id] is not False:
                watch.emit('key', target=targets[watch.id], key=name, at=at)
    finish_later(bus_of(win), None, lambda: {}, 3000)


def activate(win, app):
    """The window gets the keyboard unless it has it already, the way a window manager
    activates a window that is clicked."""
    states = alive_state(win)
    if states is not None and states.contains(S.ACTIVE):
        return
    xwin = safe(lambda: X.window_for(app_pid(app), rect(win)))
    if xwin is not None:
        safe(lambda: X.focus(xwin))
