# Shared by the AT-SPI helper's modules: the protocol channel, logging, typed failures, the AT-SPI
# bindings and the small readers every module uses. Imported first: it claims stdout.
import json
import os
import sys
import traceback
import warnings

warnings.filterwarnings('ignore')

PROTOCOL_VERSION = 3
HELPER_VERSION = '1.0.0'

# The protocol channel is a private copy of fd 1; fd 1 itself now points at stderr.
_OUT = os.fdopen(os.dup(1), 'wb', buffering=0)
os.dup2(2, 1)
sys.stdout = sys.stderr


def log(level, msg, **fields):
    fields.update(level=level, msg=msg)
    try:
        sys.stderr.write(json.dumps(fields, ensure_ascii=False, default=str) + '\n')
        sys.stderr.flush()
    except Exception:
        pass


def send(obj):
    _OUT.write((json.dumps(obj, ensure_ascii=False, separators=(',', ':'), default=str) + '\n').encode())


class Fail(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


try:
    import gi

    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi, Gio, GLib
except Exception as error:  # noqa: BLE001 - the host reports the last stderr lines of a helper that ends
    log('error', f'AT-SPI bindings missing ({error}): install python3-pyatspi and gir1.2-atspi-2.0')
    sys.exit(3)

S = Atspi.StateType
SCREEN = Atspi.CoordType.SCREEN

# ── roles and states ─────────────────────────────────────────────────────────────────────────
WINDOW_ROLES = {'frame', 'dialog', 'alert', 'file chooser', 'color chooser', 'font chooser', 'window'}
DIALOG_ROLES = {'dialog', 'alert', 'file chooser', 'color chooser', 'font chooser'}
# Containers whose bounds nobody reads: their extents are not fetched (the costliest call).
LAYOUT_ROLES = {'filler', 'panel', 'scroll pane', 'viewport', 'split pane', 'layered pane', 'glass pane',
                'root pane', 'redundant object', 'unknown', 'invalid', 'section', 'grouping'}
# Pure chrome: never part of a snapshot.
SKIPPED_ROLES = {'separator', 'scroll bar', 'tool tip'}
TABLE_ROLES = {'table', 'tree table'}
COMBO_ROLES = {'combo box'}
# Controls whose role says what they do: their actions are not listed, their labels are looked up.
CONTROL_ROLES = {'push button', 'toggle button', 'check box', 'radio button', 'switch', 'combo box', 'text',
                 'entry', 'password text', 'spin button', 'slider', 'menu item', 'check menu item',
                 'radio menu item', 'menu', 'link', 'page tab', 'list box', 'table', 'tree table', 'tree'}
ITEM_ROLES = {'menu item', 'list item', 'check menu item', 'radio menu item', 'table cell', 'page tab', 'tree item'}
STATE_NAMES = {
    S.FOCUSED: 'focused', S.CHECKED: 'checked', S.INDETERMINATE: 'indeterminate', S.PRESSED: 'pressed',
    S.SELECTED: 'selected', S.REQUIRED: 'required', S.INVALID_ENTRY: 'invalid', S.EXPANDED: 'expanded',
    S.EXPANDABLE: 'expandable', S.EDITABLE: 'editable', S.MODAL: 'modal', S.BUSY: 'busy',
    S.ACTIVE: 'active', S.MULTI_LINE: 'multi-line', S.READ_ONLY: 'read-only', S.CHECKABLE: 'checkable',
}
CLICK_ACTIONS = ('click', 'press', 'activate', 'toggle', 'jump', 'open', 'select')
INTERPRETERS = {'python', 'python3', 'perl', 'ruby', 'node', 'java', 'sh', 'bash', 'dash', 'mono', 'wine', 'gjs', 'env'}
MAX_TEXT = 20_000


def alive_state(acc):
    """The element's states, or None once it is gone."""
    try:
        states = acc.get_state_set()
    except Exception as error:
        if is_no_reply(error):
            raise Fail('TIMEOUT', 'The app does not answer on the accessibility bus (busy or hung)') from error
        return None
    if states.contains(S.DEFUNCT):
        return None
    return states


def safe(call, default=None):
    """The call's answer, or `default` when the element cannot say (gone, no such interface). An
    app that does not answer at all fails the whole request: reading on would wait once per call."""
    try:
        return call()
    except Exception as error:
        if is_no_reply(error):
            raise Fail('TIMEOUT', 'The app does not answer on the accessibility bus (busy or hung)') from error
        return default


def is_no_reply(error):
    text = str(error).lower()
    return 'noreply' in text or 'did not receive a reply' in text or 'timed out' in text or 'timeout' in text


def role_of(acc):
    return safe(acc.get_role_name, '') or ''


def bus_of(acc):
    app = getattr(acc, 'app', None)
    return getattr(app, 'bus_name', None) or ''


def window_id(win):
    return bus_of(win) + (win.path or '')


def rect(acc):
    r = safe(lambda: acc.get_extents(SCREEN))
    # GTK answers G_MININT for rows scrolled out of view: no place on screen.
    if r is None or r.width <= 0 or r.height <= 0 or r.x <= -(1 << 30) or r.y <= -(1 << 30):
        return None
    return {'x': r.x, 'y': r.y, 'width': r.width, 'height': r.height}


def text_of(acc, limit=MAX_TEXT):
    try:
        count = acc.get_character_count()
        return acc.get_text(0, min(count, limit)) if count > 0 else ''
    except Exception:
        return None


def interfaces(acc):
    return set(safe(acc.get_interfaces, []) or [])


def relation_text(acc, kind):
    names = []
    for relation in safe(acc.get_relation_set, []) or []:
        if relation.get_relation_type() != kind:
            continue
        for i in range(relation.get_n_targets()):
            target = relation.get_target(i)
            name = safe(target.get_name, '') or (text_of(target, 500) or '')
            if name.strip():
                names.append(name.strip())
    return ' '.join(names) or None


def number_text(value):
    return str(int(value)) if float(value).is_integer() else f'{value:g}'


class Liveness:
    """Whether an app answers on the accessibility bus, asked with one D-Bus Ping of our own.
    libatspi hides some timeouts (a hung app's child count comes back as a plain number after
    15 s), so a request first checks that the app it reads answers at all."""

    def __init__(self):
        self.connection = None
        self.unavailable = False

    def bus(self):
        if self.connection is None and not self.unavailable:
            try:
                session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
                reply = session.call_sync('org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus', 'GetAddress', None,
                                          GLib.VariantType('(s)'), Gio.DBusCallFlags.NONE, 2000, None)
                flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
                self.connection = Gio.DBusConnection.new_for_address_sync(reply.unpack()[0], flags, None, None)
            except Exception as error:  # noqa: BLE001 - without it, requests just cannot check first
                self.unavailable = True
                log('warn', 'no liveness checks: the accessibility bus address is unknown', error=str(error))
        return self.connection

    def answers(self, bus_name, timeout_ms=5000):
        connection = self.bus()
        if connection is None or not bus_name.startswith(':'):
            return True
        try:
            connection.call_sync(bus_name, '/', 'org.freedesktop.DBus.Peer', 'Ping', None, None,
                                 Gio.DBusCallFlags.NONE, timeout_ms, None)
            return True
        except Exception as error:  # noqa: BLE001
            return not is_no_reply(error)

    def require(self, bus_name):
        if not self.answers(bus_name):
            raise Fail('TIMEOUT', 'The app does not answer on the accessibility bus (busy or hung)')


LIVENESS = Liveness()


def proc_cmdline(pid):
    """A process's argv (empty arguments kept: they are arguments too)."""
    try:
        with open(f'/proc/{pid}/cmdline', 'rb') as f:
            data = f.read()
    except OSError:
        return []
    if data.endswith(b'\0'):
        data = data[:-1]
    return [part.decode(errors='replace') for part in data.split(b'\0')] if data else []


def proc_cwd(pid):
    try:
        return os.readlink(f'/proc/{pid}/cwd')
    except OSError:
        return None


def reply(request_id, produce):
    try:
        send({'id': request_id, 'ok': True, 'result': produce()})
    except Fail as failure:
        send({'id': request_id, 'ok': False, 'error': {'code': failure.code, 'message': failure.message}})
    except Exception as error:  # noqa: BLE001
        log('error', 'command failed', trace=traceback.format_exc())
        send({'id': request_id, 'ok': False, 'error': {'code': 'INTERNAL', 'message': f'{type(error).__name__}: {error}'}})
