# X11 for the AT-SPI helper: window titles, focus, screenshots of a window and synthetic input
# (XTest) for apps whose controls offer no accessible action.
import io
import os
import time
from collections import deque

from atspi_common import Fail, safe


# ── X11: titles, focus, screenshots, synthetic input ─────────────────────────────────────────
class X11:
    # How long a press this helper sent may take to come back through RECORD (atspi_xrecord).
    INJECTED_TTL_S = 5.0

    def __init__(self):
        self._display = None
        # Presses sent through XTest, oldest first: RECORD sees them like a person's and skips them.
        self.injected = deque(maxlen=512)

    @property
    def display(self):
        if self._display is None:
            if not os.environ.get('DISPLAY'):
                raise Fail('DISCONNECTED', 'No X display (DISPLAY is not set): screenshots and synthetic input need one')
            from Xlib import display as xdisplay
            try:
                self._display = xdisplay.Display()
            except Exception as error:
                raise Fail('DISCONNECTED', f'Cannot open the X display {os.environ.get("DISPLAY")}: {error}') from error
        return self._display

    def atom(self, name):
        return self.display.intern_atom(name)

    def top_windows(self):
        from Xlib import X
        d = self.display
        root = d.screen().root
        clients = safe(lambda: root.get_full_property(self.atom('_NET_CLIENT_LIST'), X.AnyPropertyType))
        windows = [d.create_resource_object('window', wid) for wid in clients.value] if clients else root.query_tree().children
        return [w for w in windows if safe(lambda w=w: w.get_attributes().map_state) == X.IsViewable]

    def window_for(self, pid, bounds):
        """The X window of an AT-SPI window: same process, closest geometry."""
        from Xlib import X
        best, best_score = None, None
        for w in self.top_windows():
            prop = safe(lambda w=w: w.get_full_property(self.atom('_NET_WM_PID'), X.AnyPropertyType))
            if prop is None or not len(prop.value) or prop.value[0] != pid:
                continue
            g = safe(lambda w=w: w.get_geometry())
            if g is None:
                continue
            pos = safe(lambda w=w: w.translate_coords(self.display.screen().root, 0, 0))
            x, y = (-pos.x, -pos.y) if pos else (g.x, g.y)
            score = 0 if bounds is None else abs(x - bounds['x']) + abs(y - bounds['y']) + abs(g.width - bounds['width']) + abs(g.height - bounds['height'])
            if best_score is None or score < best_score:
                best, best_score = w, score
        return best

    def ask_to_close(self, pids):
        """Asks each top-level window of these processes to close, as its close button does (an
        ICCCM WM_DELETE_WINDOW message, to windows that take it): the app may save and quit as it
        does for a person. Returns how many windows were asked."""
        from Xlib import X, protocol
        d = self.display
        protocols, delete = self.atom('WM_PROTOCOLS'), self.atom('WM_DELETE_WINDOW')
        asked = 0
        for w in self.top_windows():
            prop = safe(lambda w=w: w.get_full_property(self.atom('_NET_WM_PID'), X.AnyPropertyType))
            if prop is None or not len(prop.value) or prop.value[0] not in pids:
                continue
            if delete not in (safe(w.get_wm_protocols, []) or []):
                continue
            event = protocol.event.ClientMessage(window=w, client_type=protocols, data=(32, [delete, X.CurrentTime, 0, 0, 0]))
            if safe(lambda w=w, e=event: w.send_event(e) or True, False):
                asked += 1
        d.sync()
        return asked

    def title(self, xwin):
        name = safe(lambda: xwin.get_full_property(self.atom('_NET_WM_NAME'), self.atom('UTF8_STRING')))
        if name is not None:
            value = name.value
            return value.decode('utf-8', 'replace') if isinstance(value, bytes) else str(value)
        return safe(xwin.get_wm_name, '') or ''

    def focus(self, xwin):
        from Xlib import X, protocol
        d = self.display
        root = d.screen().root
        # A window manager, when there is one, is asked the EWMH way; without one we raise and focus.
        active = self.atom('_NET_ACTIVE_WINDOW')
        if safe(lambda: root.get_full_property(self.atom('_NET_SUPPORTING_WM_CHECK'), X.AnyPropertyType)):
            event = protocol.event.ClientMessage(window=xwin, client_type=active, data=(32, [2, X.CurrentTime, 0, 0, 0]))
            root.send_event(event, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        xwin.configure(stack_mode=X.Above)
        xwin.set_input_focus(X.RevertToParent, X.CurrentTime)
        d.sync()

    def screenshot(self, bounds, quality):
        from PIL import Image
        from Xlib import X
        d = self.display
        screen = d.screen()
        x0, y0 = max(0, bounds['x']), max(0, bounds['y'])
        x1 = min(screen.width_in_pixels, bounds['x'] + bounds['width'])
        y1 = min(screen.height_in_pixels, bounds['y'] + bounds['height'])
        if x1 <= x0 or y1 <= y0:
            raise Fail('ELEMENT_OBSCURED', 'The window is outside the screen')
        raw = screen.root.get_image(x0, y0, x1 - x0, y1 - y0, X.ZPixmap, 0xFFFFFFFF)
        image = Image.frombytes('RGB', (x1 - x0, y1 - y0), raw.data, 'raw', 'BGRX')
        out = io.BytesIO()
        image.save(out, format='JPEG', quality=quality)
        return out.getvalue(), image.width, image.height

    def has_xtest(self):
        return bool(safe(lambda: self.display.has_extension('XTEST'), False))

    def click(self, x, y, button=1, count=1):
        from Xlib import X
        from Xlib.ext import xtest
        d = self.display
        if not self.has_xtest():
            raise Fail('UNSUPPORTED_ACTION', 'The X server has no XTest extension for synthetic input')
        xtest.fake_input(d, X.MotionNotify, x=int(x), y=int(y))
        for _ in range(count):
            self.note_injected('button', button)
            xtest.fake_input(d, X.ButtonPress, button)
            xtest.fake_input(d, X.ButtonRelease, button)
        d.sync()

    def scroll(self, x, y, button, notches):
        """Wheel notches (button 4 up, 5 down) with the pointer at a screen point."""
        self.click(x, y, button, notches)

    def note_injected(self, kind, detail):
        self.injected.append((kind, detail, time.monotonic()))

    def consume_injected(self, kind, detail):
        """Whether a press seen through RECORD is one this helper sent (then it is forgotten)."""
        now = time.monotonic()
        while self.injected and now - self.injected[0][2] > self.INJECTED_TTL_S:
            self.injected.popleft()
        for entry in self.injected:
            if entry[0] == kind and entry[1] == detail:
                self.injected.remove(entry)
                return True
        return False

    # Key names as in ElementAction.keys (Playwright's names) → X keysym names.
    KEYSYMS = {
        'enter': 'Return', 'return': 'Return', 'tab': 'Tab', 'escape': 'Escape', 'esc': 'Escape',
        'backspace': 'BackSpace', 'delete': 'Delete', 'insert': 'Insert', 'home': 'Home', 'end': 'End',
        'pageup': 'Prior', 'pagedown': 'Next', 'arrowup': 'Up', 'arrowdown': 'Down', 'arrowleft': 'Left',
        'arrowright': 'Right', 'up': 'Up', 'down': 'Down', 'left': 'Left', 'right': 'Right', 'space': 'space',
        'control': 'Control_L', 'ctrl': 'Control_L', 'shift': 'Shift_L', 'alt': 'Alt_L', 'meta': 'Super_L',
        'super': 'Super_L', 'controlormeta': 'Control_L', 'menu': 'Menu', 'contextmenu': 'Menu',
        'cmd': 'Super_L', 'option': 'Alt_L',
    }

    def keysym(self, name):
        from Xlib import XK
        lower = name.lower()
        if lower in self.KEYSYMS:
            return XK.string_to_keysym(self.KEYSYMS[lower])
        if len(lower) > 1 and lower[0] == 'f' and lower[1:].isdigit():
            return XK.string_to_keysym(f'F{int(lower[1:])}')
        if len(name) == 1:
            code = ord(name)
            return code if code < 0x100 else 0x01000000 + code
        sym = XK.string_to_keysym(name)
        if not sym:
            raise Fail('UNSUPPORTED_ACTION', f'Unknown key "{name}"')
        return sym

    def _keycode(self, sym):
        """The keycode and whether Shift is needed; maps a spare keycode for symbols the keymap lacks."""
        d = self.display
        code = d.keysym_to_keycode(sym)
        if code:
            for index in range(4):
                if d.keycode_to_keysym(code, index) == sym:
                    return code, index % 2 == 1, False
            return code, False, False
        low, high = d.display.info.min_keycode, d.display.info.max_keycode
        mapping = d.get_keyboard_mapping(low, high - low + 1)
        for offset, syms in enumerate(mapping):
            if not any(syms):
                spare = low + offset
                d.change_keyboard_mapping(spare, [(sym,) * len(syms)])
                d.sync()
                return spare, False, True
        raise Fail('UNSUPPORTED_ACTION', f'No keycode free to type keysym {sym:#x}')

    def _unmap(self, code):
        d = self.display
        width = len(d.get_keyboard_mapping(code, 1)[0])
        d.change_keyboard_mapping(code, [(0,) * width])
        d.sync()

    def press_chord(self, chord):
        from Xlib import X, XK
        from Xlib.ext import xtest
        d = self.display
        if not self.has_xtest():
            raise Fail('UNSUPPORTED_ACTION', 'The X server has no XTest extension for synthetic input')
        parts = [p for p in chord.split('+') if p] if chord != '+' else ['+']
        if chord.endswith('++'):
            parts.append('+')
        syms = [self.keysym(p) for p in parts]
        codes = [self._keycode(s) for s in syms]
        shift = d.keysym_to_keycode(XK.string_to_keysym('Shift_L'))
        need_shift = codes[-1][1] and len(parts) == 1
        if need_shift:
            self.note_injected('key', shift)
            xtest.fake_input(d, X.KeyPress, shift)
        for code, _, _ in codes:
            self.note_injected('key', code)
            xtest.fake_input(d, X.KeyPress, code)
        for code, _, _ in reversed(codes):
            xtest.fake_input(d, X.KeyRelease, code)
        if need_shift:
            xtest.fake_input(d, X.KeyRelease, shift)
        d.sync()
        for code, _, remapped in codes:
            if remapped:
                self._unmap(code)

    def type_text(self, text):
        for char in text:
            self.press_chord('+' if char == '+' else char)


X = X11()
