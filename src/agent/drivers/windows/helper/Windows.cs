// Top-level windows: listed through Win32 (EnumWindows, in z-order, the way a person sees them),
// each named by an id of its HWND and its process ("0x1A02F4@4120": an HWND the system reuses for
// another process's window is never taken for the old one). Owned dialogs are top-level windows
// too, marked modal while their owner is disabled.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;

namespace Deskhook.Uia
{
    public sealed class WindowRef
    {
        public IntPtr Hwnd;
        public uint Pid;
        public string Title = "";
        public string App = "";

        public string Id { get { return "0x" + Hwnd.ToInt64().ToString("X", CultureInfo.InvariantCulture) + "@" + Pid; } }
    }

    public static class Windows
    {
        static readonly HashSet<string> ShellClasses = new HashSet<string>
        {
            "Progman", "WorkerW", "Shell_TrayWnd", "Shell_SecondaryTrayWnd", "Windows.UI.Core.CoreWindow",
            "NotifyIconOverflowWindow", "Xaml_WindowedPopupClass",
        };

        public static List<IntPtr> TopLevel()
        {
            var found = new List<IntPtr>();
            Native.EnumWindows((hwnd, _) => { found.Add(hwnd); return true; }, IntPtr.Zero);
            return found;
        }

        /// <summary>Windows a person can see and switch to: visible, not cloaked, not the shell, not ours.</summary>
        public static bool Shown(IntPtr hwnd)
        {
            if (!Native.IsWindowVisible(hwnd)) return false;
            int cloaked;
            if (Native.DwmGetWindowAttribute(hwnd, Native.DWMWA_CLOAKED, out cloaked, 4) == 0 && cloaked != 0) return false;
            if (ShellClasses.Contains(Native.ClassOf(hwnd))) return false;
            if (Native.PidOf(hwnd) == Native.GetCurrentProcessId()) return false;
            var exStyle = Native.GetWindowLong(hwnd, Native.GWL_EXSTYLE);
            var titled = Native.GetWindowTextLength(hwnd) > 0;
            if ((exStyle & Native.WS_EX_TOOLWINDOW) != 0 && !titled) return false;
            if (!titled && Native.ClassOf(hwnd) != "#32770") return false;
            var bounds = FrameBounds(hwnd);
            return bounds.right - bounds.left > 0 && bounds.bottom - bounds.top > 0;
        }

        public static List<JsonObject> List()
        {
            var windows = new List<JsonObject>();
            foreach (var hwnd in TopLevel())
            {
                if (!Shown(hwnd)) continue;
                try
                {
                    windows.Add(Info(Ref(hwnd)));
                }
                catch (Exception error)
                {
                    // One odd window does not hide the others.
                    Log.Debug("window skipped in the list", "error", error.Message);
                }
            }
            return windows;
        }

        public static WindowRef Ref(IntPtr hwnd)
        {
            var pid = Native.PidOf(hwnd);
            return new WindowRef { Hwnd = hwnd, Pid = pid, Title = Native.WindowText(hwnd), App = AppName(hwnd, pid) };
        }

        public static WindowRef Find(string id)
        {
            var at = id.IndexOf('@');
            long handle;
            uint pid;
            if (at > 2 && id.StartsWith("0x", StringComparison.Ordinal) &&
                long.TryParse(id.Substring(2, at - 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out handle) &&
                uint.TryParse(id.Substring(at + 1), NumberStyles.None, CultureInfo.InvariantCulture, out pid))
            {
                var hwnd = new IntPtr(handle);
                if (Native.IsWindow(hwnd) && Native.PidOf(hwnd) == pid) return Ref(hwnd);
            }
            throw new Fail("WINDOW_NOT_FOUND", "No window " + id + " (it was closed, or its app quit)");
        }

        public static bool Exists(string id)
        {
            try { Find(id); return true; }
            catch (Fail) { return false; }
        }

        /// <summary>Screen pixels of what is drawn (DWM's frame bounds: no invisible resize borders).</summary>
        public static tagRECT FrameBounds(IntPtr hwnd)
        {
            tagRECT rect;
            if (Native.DwmGetWindowAttribute(hwnd, Native.DWMWA_EXTENDED_FRAME_BOUNDS, out rect, Marshal.SizeOf(typeof(tagRECT))) == 0)
                return rect;
            Native.GetWindowRect(hwnd, out rect);
            return rect;
        }

        public static bool IsModal(IntPtr hwnd)
        {
            var owner = Native.GetWindow(hwnd, Native.GW_OWNER);
            return owner != IntPtr.Zero && !Native.IsWindowEnabled(owner);
        }

        public static JsonObject Info(WindowRef window)
        {
            var info = new JsonObject();
            var modal = IsModal(window.Hwnd);
            info["id"] = window.Id;
            info["title"] = window.Title;
            info["app"] = window.App;
            info["pid"] = (long)window.Pid;
            info["role"] = modal || Native.ClassOf(window.Hwnd) == "#32770" ? "Dialog" : "Window";
            info["modal"] = modal;
            if (!Native.IsIconic(window.Hwnd))
            {
                var rect = FrameBounds(window.Hwnd);
                if (rect.right > rect.left && rect.bottom > rect.top)
                    info["bounds"] = Backend.Bounds(rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top);
            }
            var argv = Processes.CommandLine(window.Pid);
            if (argv != null && argv.Count > 0)
            {
                // How this app was started: what starting it afresh needs (a build teaches from it).
                var command = new JsonObject();
                command["argv"] = argv;
                info["command"] = command;
            }
            return info;
        }

        /// <summary>The executable's file name; a UWP app's frame is named after the app inside it.</summary>
        static string AppName(IntPtr hwnd, uint pid)
        {
            if (Native.ClassOf(hwnd) == "ApplicationFrameWindow")
            {
                var core = Native.FindWindowEx(hwnd, IntPtr.Zero, "Windows.UI.Core.CoreWindow", null);
                if (core != IntPtr.Zero) pid = Native.PidOf(core);
            }
            var path = Processes.ImagePath(pid);
            return path != null ? Path.GetFileName(path) : "pid " + pid;
        }

        /// <summary>The app's other shown windows a snapshot of `main` shows too: its dialogs (owned by it, or modal).</summary>
        public static List<WindowRef> DialogsOf(WindowRef main)
        {
            var dialogs = new List<WindowRef>();
            foreach (var hwnd in TopLevel())
            {
                if (hwnd == main.Hwnd || Native.PidOf(hwnd) != main.Pid || !Shown(hwnd)) continue;
                var owner = Native.GetAncestor(hwnd, Native.GA_ROOTOWNER);
                if (owner == main.Hwnd || IsModal(hwnd)) dialogs.Add(Ref(hwnd));
            }
            // Top-most last, as a person sees them stacked.
            dialogs.Reverse();
            return dialogs;
        }
    }

    public static class Processes
    {
        public static string ImagePath(uint pid)
        {
            var process = Native.OpenProcess(Native.PROCESS_QUERY_LIMITED_INFORMATION, false, pid);
            if (process == IntPtr.Zero) return null;
            try
            {
                var name = new StringBuilder(1024);
                var size = (uint)name.Capacity;
                return Native.QueryFullProcessImageName(process, 0, name, ref size) ? name.ToString() : null;
            }
            finally
            {
                Native.CloseHandle(process);
            }
        }

        /// <summary>A process's argv (Windows 8.1+: ProcessCommandLineInformation), or null.</summary>
        public static List<string> CommandLine(uint pid)
        {
            var process = Native.OpenProcess(Native.PROCESS_QUERY_LIMITED_INFORMATION, false, pid);
            if (process == IntPtr.Zero) return null;
            try
            {
                int needed;
                Native.NtQueryInformationProcess(process, Native.ProcessCommandLineInformation, IntPtr.Zero, 0, out needed);
                if (needed <= 0 || needed > 1 << 20) return null;
                var buffer = Marshal.AllocHGlobal(needed);
                try
                {
                    if (Native.NtQueryInformationProcess(process, Native.ProcessCommandLineInformation, buffer, needed, out needed) != 0)
                        return null;
                    // UNICODE_STRING: Length (bytes), MaximumLength, then the buffer pointer.
                    var length = (ushort)Marshal.ReadInt16(buffer);
                    var text = Marshal.PtrToStringUni(Marshal.ReadIntPtr(buffer, IntPtr.Size), length / 2);
                    return SplitCommandLine(text);
                }
                finally
                {
                    Marshal.FreeHGlobal(buffer);
                }
            }
            finally
            {
                Native.CloseHandle(process);
            }
        }

        static List<string> SplitCommandLine(string text)
        {
            if (string.IsNullOrEmpty(text)) return null;
            int count;
            var argv = Native.CommandLineToArgvW(text, out count);
            if (argv == IntPtr.Zero) return null;
            try
            {
                var parts = new List<string>();
                for (var i = 0; i < count; i++) parts.Add(Marshal.PtrToStringUni(Marshal.ReadIntPtr(argv, i * IntPtr.Size)));
                return parts;
            }
            finally
            {
                Native.LocalFree(argv);
            }
        }
    }
}
