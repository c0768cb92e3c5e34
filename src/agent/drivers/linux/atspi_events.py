# Events for the AT-SPI helper: counts of UI changes per app, and replies that wait for a
# condition, for the app to settle, or for a change, without blocking other requests.
import os
import time

from atspi_common import Fail, GLib, bus_of, log, reply, safe
from atspi_tree import STATE, find_window


# ── events and deferred replies ──────────────────────────────────────────────────────────────
# What a user would see change. GObject property notifications (a tree view cell's renderer or
# widget) and the defunct states of recycled cells are left out: GTK emits them when a snapshot
# reads lazily created cells, which would make every wait after a snapshot return at once.
EVENT_TYPES = [
    'object:children-changed', 'object:state-changed', 'object:text-changed', 'object:value-changed',
    'object:selection-changed', 'object:active-descendant-changed', 'window:',
    'object:property-change:accessible-name', 'object:property-change:accessible-description',
    'object:property-change:accessible-value', 'object:property-change:accessible-role',
]
IGNORED_EVENTS = ('object:state-changed:defunct', 'object:state-changed:focusable', 'object:text-caret-moved',
                  'object:bounds-changed')
QUIET_MS = 120


def on_event(event):
    try:
        if event.type.startswith(IGNORED_EVENTS):
            return
        source = event.source
        bus = bus_of(source) if source is not None else ''
        STATE.changes[bus] = STATE.changes.get(bus, 0) + 1
        STATE.last_event[bus] = time.monotonic()
        wake(bus)
    except Exception as error:  # noqa: BLE001 - an odd event must not end the helper
        log('debug', 'event ignored', error=str(error))


def wake(bus):
    for waiter in list(STATE.waiters):
        waiter(bus)


def watch_exit(pid):
    try:
        fd = os.pidfd_open(pid)
    except (OSError, AttributeError):
        return

    def exited(*_):
        os.close(fd)
        wake(None)
        return False

    GLib.io_add_watch(fd, GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, exited)


class Deferred:
    """A reply sent later: once `ready()` holds (re-checked on every event of the app, or of any
    app while `bus` is None), then, when settling, once the app has been quiet for QUIET_MS; or at
    the deadline, whatever `result()` then says. `ready()` may return the bus name to settle on."""

    def __init__(self, request_id, bus, ready, result, timeout_ms, settle=True):
        self.id = request_id
        self.bus = bus
        self.ready = ready
        self.result = result
        self.settle = settle
        self.started = time.monotonic()
        self.met = False
        self.done = False
        self.timers = [GLib.timeout_add(max(1, timeout_ms), self.on_deadline)]
        STATE.waiters.append(self.on_event)
        self.check()

    def check(self):
        outcome = True if self.ready is None else safe(self.ready, False)
        if not outcome:
            return
        self.met = True
        if isinstance(outcome, str):
            self.bus = outcome
        if self.settle:
            self.schedule_quiet()
        else:
            self.finish()

    def on_event(self, bus):
        if self.done or self.met or (self.bus is not None and bus is not None and bus != self.bus):
            return
        self.check()

    def schedule_quiet(self):
        last = max(STATE.last_event.get(self.bus, 0), self.started)
        wait = QUIET_MS - (time.monotonic() - last) * 1000
        if wait <= 0:
            return self.finish()
        self.timers.append(GLib.timeout_add(max(1, int(wait)), self.on_quiet))

    def on_quiet(self):
        if not self.done:
            self.schedule_quiet()
        return False

    def on_deadline(self):
        self.finish()
        return False

    def finish(self):
        if self.done:
            return
        self.done = True
        if self.on_event in STATE.waiters:
            STATE.waiters.remove(self.on_event)
        for timer in self.timers:
            safe(lambda timer=timer: GLib.source_remove(timer))
        reply(self.id, self.result)


def wait_for_change(args, request_id):
    wid = args['windowId']
    timeout = max(0, int(args.get('timeoutMs') or 0))
    try:
        win, _, _, _ = find_window(wid)
    except Fail:
        # A window seen before and closed since (its OK button, its app quit) has changed, once.
        if STATE.seen.pop(wid, None) is not None:
            STATE.refs.pop(wid, None)
            return {'result': 'changed'}
        raise
    bus = bus_of(win)
    # Changes since the latest snapshot (or wait) count, so none falls between a look and a wait.
    if wid in STATE.seen and STATE.changes.get(bus, 0) != STATE.seen[wid]:
        STATE.seen[wid] = STATE.changes.get(bus, 0)
        return {'result': 'changed'}
    start = STATE.changes.get(bus, 0)

    def changed():
        return STATE.changes.get(bus, 0) != start

    def result():
        STATE.seen[wid] = STATE.changes.get(bus, 0)
        return {'result': 'changed' if changed() else 'timeout'}

    Deferred(request_id, None, lambda: changed() or find_window_gone(wid), result, timeout, settle=False)
    return None


def find_window_gone(wid):
    try:
        find_window(wid)
        return False
    except Fail:
        return True
