/**
 * The native-driver tests (test/agent/native/) run a headless desktop (scripts/test-desktop.ts)
 * and real GTK apps from Debian's packages, driven through AT-SPI by the Python helper. Installs
 * what is missing when this process may (root with apt-get, as in CI); otherwise says what to install.
 */
import { ensureDebianPackages } from './debian-packages.ts'

const PACKAGES: [path: string, pkg: string][] = [
  ['/usr/bin/Xvfb', 'xvfb'],
  ['/usr/libexec/at-spi-bus-launcher', 'at-spi2-core'],
  ['/usr/bin/dbus-launch', 'dbus-x11'],
  ['/usr/bin/dbus-send', 'dbus'],
  ['/usr/lib/python3/dist-packages/pyatspi', 'python3-pyatspi'],
  ['/usr/lib/python3/dist-packages/gi', 'python3-gi'],
  ['/usr/lib/x86_64-linux-gnu/girepository-1.0/Atspi-2.0.typelib', 'gir1.2-atspi-2.0'],
  ['/usr/lib/python3/dist-packages/Xlib', 'python3-xlib'],
  ['/usr/lib/python3/dist-packages/PIL', 'python3-pil'],
  ['/usr/bin/xdotool', 'xdotool'],
  // The apps the tests drive.
  ['/usr/bin/yad', 'yad'],
  // GTK for Python: the test apps written for one behaviour (test/fixtures/native/close-app.py).
  ['/usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-3.0.typelib', 'gir1.2-gtk-3.0'],
  ['/usr/bin/zenity', 'zenity'],
  ['/usr/bin/gtk3-widget-factory', 'gtk-3-examples'],
  ['/usr/bin/osmo', 'osmo'],
  ['/usr/bin/homebank', 'homebank'],
  // Qt 5 for Python: a Qt test app (test/fixtures/native/qt-menu-app.py), whose menus are Qt's.
  ['/usr/lib/python3/dist-packages/PyQt5', 'python3-pyqt5'],
]

await ensureDebianPackages('The native desktop tests', PACKAGES)
