// Starting an app (answering once its first window shows) and ending the running instances of one
// (by executable, process name or pid, in this session only): WM_CLOSE to its windows first, as a
// person closing it; killed when it does not end in time (a "save changes?" prompt).
using System;
using System.Collections.Generic;
using System.ComponentModel;
using System.Diagnostics;
using System.IO;
using System.Text;
using System.Threading;

namespace Deskhook.Uia
{
    public static class Apps
    {
        /// <summary>Interpreters: one is the app only with the same command line (the script decides).</summary>
        static readonly HashSet<string> Interpreters = new HashSet<string>(StringComparer.OrdinalIgnoreCase)
        {
            "python.exe", "pythonw.exe", "py.exe", "java.exe", "javaw.exe", "node.exe", "cmd.exe", "powershell.exe",
            "pwsh.exe", "wscript.exe", "cscript.exe", "mshta.exe", "rundll32.exe", "dotnet.exe",
        };

        public static JsonObject Launch(JsonObject args)
        {
            var executable = Args.Str(args, "executable");
            var arguments = Args.OptStrList(args, "args") ?? new List<string>();
            var cwd = Args.OptStr(args, "cwd");
            var title = (Args.OptStr(args, "titleContains") ?? "").ToLowerInvariant();
            var timeoutMs = Args.Int(args, "timeoutMs", 1);
            Backend.Require();
            Desktop.RequireInteractive("start an app");
            var before = new HashSet<IntPtr>(Windows.TopLevel());
            var process = Start(executable, arguments, cwd);
            var imageName = Path.GetFileName(executable).ToLowerInvariant();
            if (!imageName.EndsWith(".exe", StringComparison.Ordinal)) imageName += ".exe";
            Log.Info("app started", "pid", process.Id, "executable", executable);
            var watch = Stopwatch.StartNew();
            for (;;)
            {
                var exited = process.HasExited;
                foreach (var hwnd in Windows.TopLevel())
                {
                    if (!Windows.Shown(hwnd)) continue;
                    var window = Windows.Ref(hwnd);
                    var ours = window.Pid == process.Id ||
                               // A launcher that handed over to another process (and exited 0), or a
                               // packaged app started through its stub: its new window of the same name.
                               (!before.Contains(hwnd) && string.Equals(window.App, imageName, StringComparison.OrdinalIgnoreCase));
                    if (!ours || (title.Length > 0 && !window.Title.ToLowerInvariant().Contains(title))) continue;
                    Waits.Settle(hwnd);
                    var result = new JsonObject();
                    result["window"] = Windows.Info(Windows.Ref(hwnd));
                    result["pid"] = (long)(exited || window.Pid != process.Id ? window.Pid : (uint)process.Id);
                    return result;
                }
                if (exited && process.ExitCode != 0)
                    throw new Fail("LAUNCH_FAILED", executable + " exited with code " + process.ExitCode + " before showing a window");
                if (watch.ElapsedMilliseconds >= timeoutMs)
                    throw new Fail("LAUNCH_FAILED", executable + " showed no window" + (title.Length > 0 ? " titled *" + title + "*" : "") +
                        " within " + timeoutMs + " ms");
                Thread.Sleep(100);
            }
        }

        static Process Start(string executable, List<string> arguments, string cwd)
        {
            var info = new ProcessStartInfo(executable, JoinArguments(arguments)) { UseShellExecute = false };
            if (cwd != null) info.WorkingDirectory = cwd;
            try
            {
                return Process.Start(info);
            }
            catch (Win32Exception error)
            {
                if (error.NativeErrorCode == 740)
                    throw new Fail("LAUNCH_FAILED", executable + " asks for administrator rights (UAC): the agent cannot answer that prompt");
                if (error.NativeErrorCode != 2) throw new Fail("LAUNCH_FAILED", "Cannot start " + executable + ": " + error.Message);
            }
            // Not on PATH: the shell knows more names (App Paths: "winword", "excel").
            info.UseShellExecute = true;
            try
            {
                var process = Process.Start(info);
                if (process == null) throw new Fail("LAUNCH_FAILED", executable + " was handed to a running instance; no process to follow");
                return process;
            }
            catch (Win32Exception error)
            {
                throw new Fail("LAUNCH_FAILED", "Cannot start " + executable + ": " + error.Message);
            }
        }

        /// <summary>Arguments quoted so CommandLineToArgvW (and the C runtime) read them back as they are.</summary>
        public static string JoinArguments(List<string> arguments)
        {
            var line = new StringBuilder();
            foreach (var argument in arguments)
            {
                if (line.Length > 0) line.Append(' ');
                if (argument.Length > 0 && argument.IndexOfAny(new[] { ' ', '\t', '\n', '\v', '"' }) < 0)
                {
                    line.Append(argument);
                    continue;
                }
                line.Append('"');
                var backslashes = 0;
                foreach (var c in argument)
                {
                    if (c == '\\') { backslashes++; continue; }
                    if (c == '"') line.Append('\\', backslashes * 2 + 1);
                    else line.Append('\\', backslashes);
                    backslashes = 0;
                    line.Append(c);
                }
                line.Append('\\', backslashes * 2);
                line.Append('"');
            }
            return line.ToString();
        }

        public static JsonObject Close(JsonObject args)
        {
            var executable = Args.OptStr(args, "executable");
            var arguments = Args.OptStrList(args, "args");
            // Read for its type only: Windows tells another process's working directory only from
            // inside its memory, so apps are matched by executable and arguments (docs/windows.md).
            Args.OptStr(args, "cwd");
            var name = (Args.OptStr(args, "processName") ?? "").ToLowerInvariant();
            var pids = new HashSet<long>(Args.OptIntList(args, "pids") ?? new List<long>());
            var timeoutMs = Args.OptInt(args, "timeoutMs", 0) ?? 5000;
            Backend.Require();
            var targets = Matching(executable, arguments, name, pids);
            foreach (var process in targets)
                foreach (var hwnd in Windows.TopLevel())
                    if (Native.PidOf(hwnd) == process.Id && Native.IsWindowVisible(hwnd))
                        Native.PostMessage(hwnd, Native.WM_CLOSE, IntPtr.Zero, IntPtr.Zero);
            var watch = Stopwatch.StartNew();
            var killed = 0;
            foreach (var process in targets)
            {
                var left = (int)Math.Max(0, Math.Max(500, timeoutMs) - watch.ElapsedMilliseconds);
                if (process.WaitForExit(left)) continue;
                try
                {
                    process.Kill();
                    process.WaitForExit(2000);
                    killed++;
                }
                catch (Win32Exception error)
                {
                    throw new Fail("ACCESS_DENIED", "Not allowed to end process " + process.Id + " (" + process.ProcessName + "): " + error.Message, "ELEVATED");
                }
                catch (InvalidOperationException)
                {
                    // It ended meanwhile.
                }
            }
            var result = new JsonObject();
            result["closed"] = targets.Count - killed;
            result["killed"] = killed;
            return result;
        }

        static List<Process> Matching(string executable, List<string> arguments, string name, HashSet<long> pids)
        {
            var found = new List<Process>();
            var session = Process.GetCurrentProcess().SessionId;
            var own = Process.GetCurrentProcess().Id;
            string wantedPath = null;
            if (executable != null && executable.IndexOfAny(new[] { '\\', '/' }) >= 0)
                wantedPath = Path.GetFullPath(executable);
            var wantedBase = executable != null ? Path.GetFileName(executable).ToLowerInvariant() : null;
            if (wantedBase != null && !wantedBase.EndsWith(".exe", StringComparison.Ordinal)) wantedBase += ".exe";
            foreach (var process in Process.GetProcesses())
            {
                try
                {
                    if (process.Id == own || process.SessionId != session) continue;
                    var match = pids.Contains(process.Id);
                    if (!match && (wantedBase != null || name.Length > 0))
                    {
                        var path = Processes.ImagePath((uint)process.Id);
                        var file = path != null ? Path.GetFileName(path).ToLowerInvariant() : process.ProcessName.ToLowerInvariant() + ".exe";
                        if (wantedBase != null)
                        {
                            match = wantedPath != null && path != null
                                ? string.Equals(path, wantedPath, StringComparison.OrdinalIgnoreCase)
                                : file == wantedBase;
                            if (match && Interpreters.Contains(file))
                            {
                                var argv = Processes.CommandLine((uint)process.Id);
                                match = argv != null && SameArguments(argv, arguments ?? new List<string>());
                            }
                        }
                        if (!match && name.Length > 0) match = file == name || file == name + ".exe";
                    }
                    if (match) found.Add(process);
                }
                catch (Exception)
                {
                    // A process that ended or cannot be read is not ours to close.
                }
            }
            return found;
        }

        static bool SameArguments(List<string> argv, List<string> wanted)
        {
            if (argv.Count - 1 != wanted.Count) return false;
            for (var i = 0; i < wanted.Count; i++) if (argv[i + 1] != wanted[i]) return false;
            return true;
        }
    }
}
