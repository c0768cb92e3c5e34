# Getting an element ready for a person's input, for the AT-SPI helper's actions (atspi_actions):
# a list scrolled so that the item about to be clicked shows whole (toolkits report a clipped
# row's full extents, and its centre may lie under the list's scroll bar or the pane next to it),
# and a box focused before it is filled (an app may load a box afresh when it gains focus).
import time

from atspi_common import TABLE_ROLES, S, alive_state, rect, safe
from atspi_targets import ancestor
from atspi_x11 import X

LIST_VIEWS = TABLE_ROLES | {'list', 'list box', 'tree'}
# What a list's own scroll bar may cover along its bottom edge, in pixels.
SCROLL_BAR = 16


def into_view(acc):
    """A row's item partly outside its list's visible area is scrolled in first (a wheel notch over
    the list at a time, as a person scrolls), so the click lands on it and not on a scroll bar, a
    header or the pane next to the list. A list that does not move is left as it is."""
    view = ancestor(acc, LIST_VIEWS, 3)
    if view is None:
        return
    header = safe(lambda: view.get_column_header(0))
    for _ in range(12):
        r, box = rect(acc), rect(view)
        if r is None or box is None:
            return
        top = box['y']
        head = rect(header) if header is not None else None
        if head is not None and head['y'] >= box['y'] and head['y'] + head['height'] <= box['y'] + box['height']:
            top = head['y'] + head['height']
        below = r['y'] + r['height'] > box['y'] + box['height'] - SCROLL_BAR
        above = r['y'] < top
        if below == above:
            return
        X.scroll(box['x'] + box['width'] / 2, box['y'] + box['height'] / 2, 5 if below else 4, 1)
        if settled_rect(acc, r) == r:
            return


def settled_rect(acc, was):
    """The element's place once a scroll moved it and it stopped (toolkits animate a wheel
    scroll): two reads 50 ms apart that agree; `was` when it did not move within half a second."""
    deadline = time.monotonic() + 0.5
    now = rect(acc)
    while now == was and time.monotonic() < deadline:
        time.sleep(0.02)
        now = rect(acc)
    if now == was:
        return was
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        time.sleep(0.05)
        later = rect(acc)
        if later == now:
            break
        now = later
    return now


def focus_and_wait(acc):
    """Focus on the element, answered once the app says it has it (briefly: some never say)."""
    if not safe(acc.grab_focus, False):
        return False
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:
        states = alive_state(acc)
        if states is None or states.contains(S.FOCUSED):
            break
        time.sleep(0.02)
    return True
