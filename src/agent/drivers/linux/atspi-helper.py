#!/usr/bin/env python3
# deskhook's Linux desktop helper: one long-lived process that the agent's native driver host
# (src/agent/drivers/native/helper-host.ts) talks to with JSON lines on stdin/stdout, protocol in
# src/protocol/helper.ts. It reads and drives native apps through AT-SPI (the Linux accessibility
# bus), takes screenshots and synthesises input through X11.
#
# Why Python on Debian's python3-pyatspi and not a D-Bus client written in TypeScript: AT-SPI is
# more than D-Bus calls. libatspi (which pyatspi wraps through GObject introspection) keeps a
# per-application cache of roles, names, states and children fed by the apps' own cache signals,
# so walking a window costs local reads instead of a round trip per property; it registers event
# listeners with the registry, which is what makes apps emit events at all; and it finds the
# accessibility bus and speaks the Action, EditableText, Selection, Table and Value interfaces.
# Rewriting that over a raw D-Bus library (Bun has none, we ship none) would make a second, less
# tested AT-SPI client. pyatspi is what Orca and dogtail use; python3-xlib gives XTest input and
# X11 screenshots, python3-pil the JPEG encoder. All are plain Debian packages for /usr/bin/python3.
#
# stdout carries the protocol only: anything else a library prints goes to stderr, which the host
# writes to the agent's log (lines that are JSON objects carry their own level).
#
# The modules next to this file: atspi_common (channel, logging, readers), atspi_tree (windows
# and snapshots), atspi_actions (acting on elements), atspi_events (changes and deferred replies),
# atspi_apps (launching and closing apps), atspi_x11 (X11: titles, focus, screenshots, XTest),
# atspi_record ("show me": a person's input as event lines, a remote viewer's input as X input),
# atspi_targets (what such an event happened on), atspi_ready (a list scrolled to the item about
# to be clicked, a box focused before it is filled) and atspi_xrecord (a person's own clicks and
# keys through the X RECORD extension).
import json
import os
import signal
import sys
import traceback

from atspi_common import HELPER_VERSION, PROTOCOL_VERSION, Atspi, Fail, Gio, GLib, is_no_reply, log, send
from atspi_actions import act, focus, screenshot
from atspi_apps import close_app, launch
from atspi_events import EVENT_TYPES, Deferred, on_event, wait_for_change
from atspi_record import remote_input, unwatch_input, watch_input
from atspi_tree import list_windows, snapshot


def hello(args):
    wanted = args.get('protocol')
    if wanted != PROTOCOL_VERSION:
        raise Fail('PROTOCOL_MISMATCH', f'the helper speaks protocol {PROTOCOL_VERSION}, the agent {wanted}')
    return {
        'protocol': PROTOCOL_VERSION,
        'backend': 'atspi',
        'platform': 'linux',
        'helperVersion': HELPER_VERSION,
        'pid': os.getpid(),
        'runtime': f'python {sys.version.split()[0]}, at-spi {Atspi.get_version()[0]}.{Atspi.get_version()[1]}' if hasattr(Atspi, 'get_version') else f'python {sys.version.split()[0]}',
    }


def session(_args):
    """Whether the desktop takes input now: a logind session that says it is locked does not
    (GNOME, KDE and light-locker set LockedHint). An X display without a logind session (Xvfb, a
    kiosk) has no lock screen the helper could know of, so it is active."""
    session_id = os.environ.get('XDG_SESSION_ID')
    if not session_id:
        return {'state': 'active'}
    try:
        bus = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
        path = bus.call_sync('org.freedesktop.login1', '/org/freedesktop/login1', 'org.freedesktop.login1.Manager',
                             'GetSession', GLib.Variant('(s)', (session_id,)), GLib.VariantType('(o)'),
                             Gio.DBusCallFlags.NONE, 1000, None).unpack()[0]
        locked = bus.call_sync('org.freedesktop.login1', path, 'org.freedesktop.DBus.Properties', 'Get',
                               GLib.Variant('(ss)', ('org.freedesktop.login1.Session', 'LockedHint')),
                               GLib.VariantType('(v)'), Gio.DBusCallFlags.NONE, 1000, None).unpack()[0]
    except Exception as error:  # noqa: BLE001 - no logind on this machine: nothing says it is locked
        log('debug', 'logind not asked', error=str(error))
        return {'state': 'active'}
    if locked:
        return {'state': 'locked', 'message': 'The desktop session is locked: nothing can be reached until someone unlocks it'}
    return {'state': 'active'}


SYNC = {
    'hello': hello,
    'session': session,
    'listWindows': lambda args: {'windows': list_windows()},
    'snapshot': snapshot,
    'screenshot': screenshot,
    'close': close_app,
    'watchInput': watch_input,
    'unwatchInput': unwatch_input,
}


# Each command's arguments as src/protocol/helper.ts (HELPER_COMMANDS) types them: name → (kind,
# required, minimum). They are checked before the command runs, so a missing or mistyped argument
# is a BAD_REQUEST naming it (as the Windows helper's Args in
# src/agent/drivers/windows/helper/Channel.cs answers), never an INTERNAL from deep inside.
# test/agent/native/helper-contract.test.ts derives its bad arguments from the TypeScript
# schemas: a command or argument missing here fails there.
ARGS = {
    'hello': {'protocol': ('int', True, None)},
    'session': {},
    'listWindows': {},
    'snapshot': {'windowId': ('str', True, None), 'maxElements': ('int', True, 1)},
    'act': {'windowId': ('str', True, None), 'action': ('obj', True, None)},
    'waitForChange': {'windowId': ('str', True, None), 'timeoutMs': ('int', True, 0)},
    'screenshot': {'windowId': ('str', True, None), 'quality': ('int', False, None)},
    'launch': {'executable': ('str', True, None), 'args': ('strs', False, None), 'cwd': ('str', False, None),
               'titleContains': ('str', False, None), 'timeoutMs': ('int', True, 1)},
    'close': {'executable': ('str', False, None), 'args': ('strs', False, None), 'cwd': ('str', False, None),
              'processName': ('str', False, None), 'pids': ('ints', False, None), 'timeoutMs': ('int', False, None)},
    'focus': {'windowId': ('str', True, None)},
    'watchInput': {'windowId': ('str', True, None), 'watch': ('str', True, None)},
    'unwatchInput': {'watch': ('str', True, None)},
    'input': {'windowId': ('str', True, None), 'input': ('obj', True, None)},
}


def is_int(value):
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, float) and value.is_integer())


KINDS = {
    'str': ('a string', lambda v: isinstance(v, str)),
    'int': ('an integer', is_int),
    'obj': ('an object', lambda v: isinstance(v, dict)),
    'strs': ('an array of strings', lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)),
    'ints': ('an array of integers', lambda v: isinstance(v, list) and all(is_int(x) for x in v)),
}


def check_args(cmd, args):
    for name, (kind, required, minimum) in ARGS[cmd].items():
        value = args.get(name)
        if value is None:
            if required:
                raise Fail('BAD_REQUEST', f'missing argument "{name}"')
            continue
        what, valid = KINDS[kind]
        if not valid(value):
            raise Fail('BAD_REQUEST', f'argument "{name}" must be {what}')
        if minimum is not None and value < minimum:
            raise Fail('BAD_REQUEST', f'argument "{name}" must be at least {minimum}')


def handle(line):
    try:
        request = json.loads(line)
    except ValueError:
        log('warn', 'malformed request line', line=line[:200])
        send({'id': None, 'ok': False, 'error': {'code': 'BAD_REQUEST', 'message': 'not a JSON line'}})
        return
    if not isinstance(request, dict) or not isinstance(request.get('id'), str) or not isinstance(request.get('cmd'), str):
        send({'id': request.get('id') if isinstance(request, dict) and isinstance(request.get('id'), str) else None,
              'ok': False, 'error': {'code': 'BAD_REQUEST', 'message': 'a request is {"id": string, "cmd": string, "args": object}'}})
        return
    request_id, cmd = request['id'], request['cmd']
    args = request.get('args')
    if args is None:
        args = {}
    if not isinstance(args, dict):
        send({'id': request_id, 'ok': False, 'error': {'code': 'BAD_REQUEST', 'message': 'args must be an object'}})
        return

    def finish_later(bus, ready, result, timeout_ms, settle=True):
        Deferred(request_id, bus, ready, result, timeout_ms, settle)

    try:
        if cmd not in ARGS:
            raise Fail('UNKNOWN_COMMAND', f'Unknown command "{cmd}"')
        check_args(cmd, args)
        if cmd in SYNC:
            result = SYNC[cmd](args)
        elif cmd == 'act':
            result = act(args, finish_later)
        elif cmd == 'launch':
            result = launch(args, finish_later)
        elif cmd == 'focus':
            result = focus(args, finish_later)
        elif cmd == 'input':
            result = remote_input(args, finish_later)
        elif cmd == 'waitForChange':
            result = wait_for_change(args, request_id)
        else:
            raise Fail('UNKNOWN_COMMAND', f'Unknown command "{cmd}"')
        if result is not None:
            send({'id': request_id, 'ok': True, 'result': result})
    except Fail as failure:
        send({'id': request_id, 'ok': False, 'error': {'code': failure.code, 'message': failure.message}})
    except KeyError as error:
        send({'id': request_id, 'ok': False, 'error': {'code': 'BAD_REQUEST', 'message': f'missing argument {error}'}})
    except GLib.Error as error:
        code = 'TIMEOUT' if is_no_reply(error) else 'STALE_REF'
        send({'id': request_id, 'ok': False, 'error': {'code': code, 'message': f'AT-SPI: {error}'}})
    except Exception as error:  # noqa: BLE001
        log('error', 'command failed', cmd=cmd, trace=traceback.format_exc())
        send({'id': request_id, 'ok': False, 'error': {'code': 'INTERNAL', 'message': f'{type(error).__name__}: {error}'}})


def main():
    # AT-SPI calls to a busy app give up after 3 s instead of libatspi's 0.8 s default (an app
    # building a dialog can take longer) and well inside the host's deadline.
    Atspi.set_timeout(3000, 15000)
    listener = Atspi.EventListener.new(on_event)
    for kind in EVENT_TYPES:
        listener.register(kind)
    loop = GLib.MainLoop()
    pending = bytearray()

    def on_stdin(fd, condition):
        chunk = os.read(fd, 1 << 16) if condition & GLib.IO_IN else b''
        if not chunk:
            loop.quit()  # the host went away: so do we
            return False
        pending.extend(chunk)
        while True:
            newline = pending.find(b'\n')
            if newline < 0:
                break
            line = pending[:newline].decode('utf-8', 'replace').strip()
            del pending[:newline + 1]
            if line:
                handle(line)
        return True

    GLib.io_add_watch(0, GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, on_stdin)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: loop.quit() or False)
    loop.run()
    listener.deregister  # noqa: B018 - released with the process


if __name__ == '__main__':
    main()
