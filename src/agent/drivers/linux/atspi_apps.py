# Apps for the AT-SPI helper: starting one (and answering once its window shows) and ending the
# running instances of one, for a fresh launch.
import os
import re
import select
import signal
import subprocess
import tempfile
import time

from atspi_common import DIALOG_ROLES, INTERPRETERS, Fail, GLib, S, log, proc_cmdline, role_of, safe
from atspi_events import watch_exit
from atspi_tree import STATE, children_of, find_window, list_windows
from atspi_x11 import X


def proc_environ(pid):
    try:
        with open(f'/proc/{pid}/environ', 'rb') as f:
            pairs = f.read().split(b'\0')
    except OSError:
        return None
    env = {}
    for pair in pairs:
        key, _, value = pair.partition(b'=')
        env[key.decode(errors='replace')] = value.decode(errors='replace')
    return env


# What an app started by the desktop's user had, and a fresh launch gives it again (README,
# "Desktops and the agent", native apps): where it keeps its files and settings, its language, its
# session bus (a GSettings backend talks over it). The accessibility switches stay the helper's,
# so the app still shows its controls.
USER_ENV = ('HOME', 'USER', 'LOGNAME', 'PATH', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'GSETTINGS_BACKEND',
            'DCONF_PROFILE', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME',
            'XDG_STATE_HOME', 'XDG_RUNTIME_DIR', 'XDG_CONFIG_DIRS', 'XDG_DATA_DIRS', 'XDG_CURRENT_DESKTOP')
A11Y_ENV = ('NO_AT_BRIDGE', 'GTK_MODULES', 'QT_ACCESSIBILITY', 'QT_LINUX_ACCESSIBILITY_ALWAYS_ON',
            'ACCESSIBILITY_ENABLED')
# Per command line: the environment and working directory of the last instance a fresh launch ended.
USER_CONTEXT = {}


def remember_context(key, pids):
    """Keeps how the first of these processes was started (its user's environment, its folder)."""
    for pid in sorted(pids):
        env = proc_environ(pid)
        cwd = safe(lambda pid=pid: os.readlink(f'/proc/{pid}/cwd'), None)
        if env is None:
            continue
        USER_CONTEXT[key] = ({k: v for k, v in env.items() if k in USER_ENV or k.startswith('LC_')}, cwd)
        return


def launch_context(key, cwd):
    """The environment and folder a launch gives the app: the last ended instance's, else the helper's."""
    env = dict(os.environ)
    remembered = USER_CONTEXT.get(key)
    if not remembered:
        return env, cwd
    user_env, user_cwd = remembered
    for k in [k for k in env if k in USER_ENV or k.startswith('LC_')]:
        del env[k]
    env.update(user_env)
    for k in A11Y_ENV:
        if k in os.environ:
            env[k] = os.environ[k]
    return env, cwd or (user_cwd if user_cwd and os.path.isdir(user_cwd) else None)


def own_ancestry():
    pids, pid = set(), os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            with open(f'/proc/{pid}/stat') as f:
                pid = int(f.read().rsplit(')', 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


def resolve_executable(executable, cwd=None):
    if os.sep in executable:
        path = executable if os.path.isabs(executable) else os.path.join(cwd or os.getcwd(), executable)
        return os.path.realpath(path)
    from shutil import which
    found = which(executable)
    return os.path.realpath(found) if found else executable


def matching_processes(args):
    """Processes of this user on this display that are the app: by executable (and script), name or pid."""
    executable = args.get('executable')
    wanted_args = args.get('args') or []
    name = (args.get('processName') or '').lower()
    pids = set(args.get('pids') or [])
    exe_path = resolve_executable(executable, args.get('cwd')) if executable else None
    exe_base = os.path.basename(exe_path) if exe_path else None
    display = os.environ.get('DISPLAY')
    skip = own_ancestry()
    uid = os.getuid()
    found = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        pid = int(entry)
        if pid in skip:
            continue
        try:
            if os.stat(f'/proc/{pid}').st_uid != uid:
                continue
        except OSError:
            continue
        match = pid in pids
        if not match and (exe_path or name):
            real = safe(lambda pid=pid: os.path.realpath(os.readlink(f'/proc/{pid}/exe')), '')
            cmd = proc_cmdline(pid)
            if exe_path and cmd:
                same = real == exe_path or os.path.basename(cmd[0]) == exe_base
                base = os.path.basename(real).rstrip('0123456789.')
                if same and base in INTERPRETERS:
                    # An interpreter (a shell, python…) is the app only with the same command line.
                    same = cmd[1:] == list(wanted_args)
                match = same
            if not match and name:
                comm = safe(lambda pid=pid: open(f'/proc/{pid}/comm').read().strip(), '')
                match = name in (comm.lower(), os.path.basename(real).lower())
        if not match:
            continue
        env = proc_environ(pid)
        if display and env is not None and env.get('DISPLAY', display) != display:
            continue
        found.append(pid)
    return found


def wait_exit(pids, timeout):
    """Waits for processes to end, on pidfds (no polling); returns those still running."""
    remaining = set(pids)
    fds = {}
    for pid in list(remaining):
        try:
            fds[os.pidfd_open(pid)] = pid
        except (OSError, AttributeError):
            if not os.path.exists(f'/proc/{pid}'):
                remaining.discard(pid)
    deadline = time.monotonic() + timeout
    try:
        while fds:
            reap_children()
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select(list(fds), [], [], left)
            for fd in ready:
                remaining.discard(fds.pop(fd))
                os.close(fd)
    finally:
        for fd in fds:
            os.close(fd)
    reap_children()
    # Zombies of other parents have exited too.
    return [pid for pid in remaining if os.path.exists(f'/proc/{pid}') and proc_state(pid) != 'Z']


def proc_state(pid):
    try:
        with open(f'/proc/{pid}/stat') as f:
            return f.read().rsplit(')', 1)[1].split()[0]
    except (OSError, IndexError):
        return 'X'


def reap_children():
    for pid, proc in list(STATE.launched.items()):
        if proc.poll() is not None:
            STATE.launched.pop(pid, None)


def signal_app(pid, sig):
    try:
        # An app we (or anyone) started in its own session takes its helpers with it.
        if os.getsid(pid) == pid:
            os.killpg(pid, sig)
        else:
            os.kill(pid, sig)
        return True
    except ProcessLookupError:
        return False
    except PermissionError as error:
        raise Fail('ACCESS_DENIED', f'Not allowed to end process {pid}: {error}') from error


# Lock files an app keeps beside the file it has open ("books.gnucash.LCK", ".~lock.x.ods#",
# "db.kdbx.lock") or holds open itself: an app ended by force leaves them behind, and its next start
# asks about them. They are reported, never removed (the lock may be another person's).
LOCK_NAME = re.compile(r'(\.lck|\.lock|\.lk|~lock.*#|\.lockfile)$', re.IGNORECASE)
SYSTEM_DIRS = ('/proc/', '/sys/', '/dev/', '/usr/', '/lib', '/etc/', '/var/lib/', '/run/', '/memfd:')


def lock_candidates(pids):
    """Files that would be stale locks if these processes ended now."""
    found = set()
    for pid in pids:
        try:
            fds = os.listdir(f'/proc/{pid}/fd')
        except OSError:
            continue
        for fd in fds:
            path = safe(lambda fd=fd: os.readlink(f'/proc/{pid}/fd/{fd}'), '')
            if not path.startswith('/') or path.startswith(SYSTEM_DIRS) or not os.path.isfile(path):
                continue
            folder, name = os.path.split(path)
            if LOCK_NAME.search(name):
                found.add(path)
                continue
            for sibling in (f'{name}.LCK', f'{name}.lck', f'{name}.lock', f'.~lock.{name}#', f'.{name}.lock'):
                if os.path.exists(os.path.join(folder, sibling)):
                    found.add(os.path.join(folder, sibling))
    return found


# How long an app whose first window is a dialog (a sign-in) gets to show its main window, which
# a build or run then works in (the dialog is inside its snapshots while open), and how long one
# whose first window is neither a main window nor a dialog (a splash) gets.
DIALOG_GRACE_S = 1.5
SPLASH_GRACE_S = 6.0


# What a window a person works in holds; a splash holds only a picture, words and a progress bar.
WORK_ROLES = {'menu bar', 'push button', 'tool bar', 'entry', 'password text', 'page tab list', 'table',
              'tree table', 'tree', 'list', 'combo box', 'check box', 'radio button', 'toggle button', 'text'}


def has_controls(wid, budget=120):
    """The window holds something to work with (a menu bar, a button, a box to type in)."""
    try:
        win = find_window(wid)[0]
    except Fail:
        return True
    queue, seen = [win], 0
    while queue and seen < budget:
        node = queue.pop(0)
        seen += 1
        for child in children_of(node):
            role = role_of(child)
            if role in WORK_ROLES and (role != 'text' or safe(lambda c=child: c.get_state_set().contains(S.EDITABLE), False)):
                return True
            queue.append(child)
    return False


def window_rank(info):
    """0 for an app's main window (a frame with something to work with), 1 for another plain
    window (a splash: a frame with only a picture and words), 2 for a dialog."""
    if info.get('modal') or info.get('role') in DIALOG_ROLES:
        return 2
    return 0 if info.get('role') == 'frame' and has_controls(info['id']) else 1

# How long an app asked to close its windows gets to save and quit before it is told to end.
CLOSE_GRACE_S = 3.0


def close_app(args):
    """Ends the app as a person would first: its windows are asked to close, so it may save and
    quit (README, "Desktops and the agent", native apps; the Windows helper posts WM_CLOSE the same
    way), and only an app still running after a grace period is sent SIGTERM, then SIGKILL. An app
    that saves only when a person closes it keeps its data."""
    pids = matching_processes(args)
    if args.get('executable'):
        key = (resolve_executable(args['executable'], args.get('cwd')), tuple(args.get('args') or []))
        remember_context(key, pids)
    timeout = max(0.5, int(args.get('timeoutMs') or 5000) / 1000)
    running = pids
    if pids and safe(lambda: X.ask_to_close(set(pids)), 0):
        running = wait_exit(pids, min(CLOSE_GRACE_S, timeout))
        if running:
            log('info', 'the app did not close its windows in time: ending it', pids=sorted(running))
    locks = lock_candidates(running) if running else set()
    for pid in running:
        signal_app(pid, signal.SIGTERM)
    lingering = wait_exit(running, timeout)
    for pid in lingering:
        signal_app(pid, signal.SIGKILL)
    left = wait_exit(lingering, 2)
    if left:
        raise Fail('TIMEOUT', f'Processes {left} did not end')
    stale = sorted(path for path in locks if os.path.exists(path))
    if stale:
        log('warn', 'the app was ended by force and left lock files', locks=stale)
    return {'closed': len(pids) - len(lingering), 'killed': len(lingering), 'ended': len(running),
            'staleLocks': stale, 'pids': sorted(pids)}


def output_tail(file, lines=5):
    """The last lines an app printed (its output goes to an unlinked temp file, not to a pipe of
    ours, so the app outlives a restart of this helper without a broken pipe)."""
    try:
        file.seek(max(0, os.fstat(file.fileno()).st_size - 2000))
        text = file.read().decode(errors='replace')
    except OSError:
        return ''
    return '; '.join(line.strip() for line in text.splitlines()[-lines:] if line.strip())


def launch(args, finish_later):
    executable = args.get('executable')
    if not executable:
        raise Fail('LAUNCH_FAILED', 'The app spec has no executable')
    cwd = args.get('cwd') or None
    # Found as the spec means it (the helper's PATH, the spec's folder) before the person's
    # environment and folder are put in place for the app.
    command = [resolve_executable(executable, cwd), *(args.get('args') or [])]
    title = (args.get('titleContains') or '').casefold()
    timeout = int(args.get('timeoutMs') or 30000)
    before = {w['id'] for w in list_windows()}
    output = tempfile.TemporaryFile()
    env, cwd = launch_context((resolve_executable(executable, cwd), tuple(args.get('args') or [])), cwd)
    try:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=output,
                                stderr=subprocess.STDOUT, start_new_session=True, close_fds=True)
    except OSError as error:
        output.close()
        raise Fail('LAUNCH_FAILED', f'Cannot start {executable}: {error.strerror or error}') from error
    STATE.launched[proc.pid] = proc
    exe_base = os.path.basename(resolve_executable(executable, cwd))
    log('info', 'app started', pid=proc.pid, command=command)

    def ours(info):
        pid = info['pid']
        if pid == proc.pid or safe(lambda: os.getsid(pid)) == proc.pid:
            return True
        # A launcher that handed over to an instance already running (and exited 0).
        return proc.poll() == 0 and info['app'] == exe_base

    def found():
        mine = [info for info in list_windows()
                if not (info['id'] in before and proc.poll() != 0)
                and ours(info) and (not title or title in info['title'].casefold())]
        # The app's main window (a frame), when it shows one besides a dialog it opened at start (a
        # sign-in) or a splash window: the dialog is inside the main window's snapshots while open,
        # and the main window stays once either closes.
        return min(mine, key=rank) if mine else None

    working = set()

    def rank(info):
        """window_rank, remembering windows seen to hold controls (a splash is looked at again)."""
        if info['id'] in working:
            return 0
        ranked = window_rank(info)
        if ranked == 0:
            working.add(info['id'])
        return ranked

    since = []

    def main_or_waited():
        """The main window, or the best other window once the app had its grace to show one."""
        info = found()
        if info is None or rank(info) == 0:
            return info
        if not since:
            since.append(time.monotonic())
            grace = DIALOG_GRACE_S if rank(info) == 2 else SPLASH_GRACE_S
            since.append(grace)
            # Nothing else may happen on the bus: look again when the grace is over.
            GLib.timeout_add(int(grace * 1000) + 10, lambda: [w(None) for w in list(STATE.waiters)] and False)
        return info if time.monotonic() - since[0] >= since[1] else None

    def check():
        info = main_or_waited()
        if info is not None:
            return info['id'].partition('/')[0]  # settle on the app's own events
        return proc.poll() not in (None, 0)

    def result():
        info = found()
        if info is not None:
            output.close()
            return {'window': info, 'pid': proc.pid}
        code = proc.poll()
        tail = output_tail(output)
        output.close()
        if code not in (None, 0):
            raise Fail('LAUNCH_FAILED', f'{executable} exited with code {code} before showing a window' + (f': {tail}' if tail else ''))
        raise Fail('LAUNCH_FAILED', f'{executable} showed no window{" titled *" + title + "*" if title else ""} within {timeout} ms' + (f' (it printed: {tail})' if tail else ''))

    # Window events of any app wake the check (a new app's bus name is not known yet); so does its
    # exit, seen on a pidfd (a GLib child watch would reap it and lose the exit code).
    watch_exit(proc.pid)
    finish_later(None, check, result, timeout)
    return None
