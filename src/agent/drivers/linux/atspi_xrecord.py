# A person's own clicks and keys at the PC, for "show me" (atspi_record): the X RECORD extension
# copies every client's device events (the real mouse and keyboard, and any XTest client) to a
# connection of ours. AT-SPI says what changed in a window but not that a button was clicked or
# Enter pressed, so without RECORD only the values, checks and selections of a person's
# demonstration reach the recording.
#
# RECORD's enable call blocks while it reports: it runs in a thread on its own X connection and
# hands each press to the GLib main loop, where everything AT-SPI happens. Only presses travel (the
# button or keycode, the pointer and the modifiers); what a key types is never looked at here.
import os
import threading
import time

from atspi_common import GLib, log

# X keysym names → the contract's key names (src/protocol/recording.ts REMOTE_KEYS, Playwright's).
NAMED_KEYS = {
    'Return': 'Enter', 'KP_Enter': 'Enter', 'Tab': 'Tab', 'ISO_Left_Tab': 'Tab', 'Escape': 'Escape',
    'BackSpace': 'Backspace', 'Delete': 'Delete', 'KP_Delete': 'Delete', 'Up': 'ArrowUp', 'Down': 'ArrowDown',
    'Left': 'ArrowLeft', 'Right': 'ArrowRight', 'KP_Up': 'ArrowUp', 'KP_Down': 'ArrowDown',
    'KP_Left': 'ArrowLeft', 'KP_Right': 'ArrowRight', 'Home': 'Home', 'End': 'End', 'Prior': 'PageUp',
    'Next': 'PageDown', 'space': 'Space', 'Insert': 'Insert', 'Menu': 'ContextMenu',
    **{f'F{n}': f'F{n}' for n in range(1, 13)},
}
SHIFT, CONTROL, ALT, META = 1, 4, 8, 64  # X modifier masks (Mod1 is Alt, Mod4 Super)
_SYMS = None


def key_name(display, keycode, state):
    """'Enter', 'Shift+Tab', 'Control+s'… for a key that is not text; None for text and modifiers."""
    global _SYMS
    from Xlib import XK
    if _SYMS is None:
        _SYMS = {XK.string_to_keysym(name): key for name, key in NAMED_KEYS.items()}
    sym = display.keycode_to_keysym(keycode, 0)
    mods = [name for mask, name in ((CONTROL, 'Control'), (ALT, 'Alt'), (META, 'Meta')) if state & mask]
    if sym in _SYMS:
        if state & SHIFT:
            mods.append('Shift')
        return '+'.join([*mods, _SYMS[sym]])
    if mods and 0x20 < sym < 0x7f:
        # A shortcut (Control+s): the letter names the key, it types nothing.
        return '+'.join([*mods, chr(sym).lower()])
    return None


def pressed_at(server_ms):
    """When the X server took the press, on time.monotonic()'s clock: Xorg stamps events with
    CLOCK_MONOTONIC milliseconds (32 bits, wrapping). A server on another clock: when it got here."""
    now = time.monotonic()
    age = ((int(now * 1000) - server_ms) % (1 << 32)) / 1000
    return now - age if age < 10 else now


class XRecord:
    """Presses of every X client, reported to `on_press(kind, detail, x, y, state, at)` on the main
    loop: kind 'button' (detail: the button) or 'key' (detail: the keycode); `at` is when it was
    pressed (time.monotonic()'s clock), which may be before the app's events about it arrived."""

    def __init__(self, on_press):
        self.on_press = on_press
        self.control = None
        self.data = None
        self.context = None
        self.thread = None
        #: Why a person's clicks and keys cannot be seen (None while they are).
        self.reason = None

    def start(self):
        try:
            from Xlib import X, display
            from Xlib.ext import record
            if not os.environ.get('DISPLAY'):
                raise RuntimeError('no X display')
            self.control = display.Display()
            if not self.control.has_extension('RECORD'):
                raise RuntimeError('the X server has no RECORD extension')
            self.data = display.Display()
            self.context = self.control.record_create_context(0, [record.AllClients], [{
                'core_requests': (0, 0), 'core_replies': (0, 0), 'ext_requests': (0, 0, 0, 0),
                'ext_replies': (0, 0, 0, 0), 'delivered_events': (0, 0),
                'device_events': (X.KeyPress, X.ButtonPress), 'errors': (0, 0),
                'client_started': False, 'client_died': False,
            }])
            self.control.sync()
        except Exception as error:  # noqa: BLE001 - recording goes on without a person's clicks and keys
            self.reason = f'X RECORD is unavailable: {error}'
            log('warn', 'clicks and keys made at the PC are not recorded', reason=self.reason)
            self.close()
            return
        self.thread = threading.Thread(target=self.run, name='xrecord', daemon=True)
        self.thread.start()

    def run(self):
        from Xlib import X
        from Xlib.ext import record
        from Xlib.protocol import rq
        field = rq.EventField(None)

        def on_reply(reply):
            if reply.category != record.FromServer or reply.client_swapped or not reply.data:
                return
            data = reply.data
            while len(data):
                event, data = field.parse_binary_value(data, self.data.display, None, None)
                if event.type not in (X.ButtonPress, X.KeyPress):
                    continue
                kind = 'button' if event.type == X.ButtonPress else 'key'
                press = (kind, event.detail, event.root_x, event.root_y, event.state, pressed_at(event.time))
                # Ahead of the apps' AT-SPI events: a click is looked up before the UI moves on.
                GLib.idle_add(self.deliver, press, priority=GLib.PRIORITY_HIGH)

        try:
            self.data.record_enable_context(self.context, on_reply)
        except Exception as error:  # noqa: BLE001 - the X server went away
            log('warn', 'X RECORD stopped', error=f'{type(error).__name__}: {error}')

    def deliver(self, press):
        if self.context is not None:
            self.on_press(*press)
        return False

    def stop(self):
        if self.context is not None and self.control is not None:
            try:
                self.control.record_disable_context(self.context)
                self.control.sync()
            except Exception as error:  # noqa: BLE001
                log('warn', 'X RECORD not disabled', error=str(error))
        if self.thread is not None:
            self.thread.join(2)
            self.thread = None
        self.close()

    def close(self):
        if self.context is not None and self.control is not None:
            try:
                self.control.record_free_context(self.context)
                self.control.sync()
            except Exception:  # noqa: BLE001
                pass
        self.context = None
        for connection in (self.data, self.control):
            if connection is not None:
                try:
                    connection.close()
                except Exception:  # noqa: BLE001
                    pass
        self.data = self.control = None
