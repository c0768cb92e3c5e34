// Waiting on an app: until its UI thread has handled what it was sent (Settle), or until what its
// window shows changes (waitForChange). A change is seen by comparing fingerprints of the window's
// tree (the same cached read as a snapshot), taken when it was last looked at and polled since:
// UIA's events are not raised alike by every framework, a fingerprint is.
using System;
using System.Diagnostics;
using System.Threading;

namespace Deskhook.Uia
{
    public static class Waits
    {
        /// <summary>
        /// Returns once the window's thread has handled the messages an action sent it (WM_NULL comes
        /// back after them), twice with a pause for what those messages posted; a hung app is not waited for.
        /// </summary>
        public static void Settle(IntPtr hwnd)
        {
            for (var i = 0; i < 2; i++)
            {
                IntPtr result;
                Native.SendMessageTimeout(hwnd, Native.WM_NULL, IntPtr.Zero, IntPtr.Zero, Native.SMTO_ABORTIFHUNG, 2000, out result);
                Thread.Sleep(60);
            }
        }

        public static JsonObject Focus(JsonObject args)
        {
            var windowId = Args.Str(args, "windowId");
            Backend.Require();
            var window = Windows.Find(windowId);
            Desktop.RequireInteractive("bring the window to the front");
            Desktop.RequireReachable(window, "bring it to the front");
            if (!Input.Foreground(window.Hwnd))
                Log.Warn("the window did not come to the foreground", "window", window.Id, "title", window.Title);
            Settle(window.Hwnd);
            return new JsonObject();
        }

        public static JsonObject ForChange(JsonObject args)
        {
            var windowId = Args.Str(args, "windowId");
            var timeoutMs = Args.Int(args, "timeoutMs", 0);
            var automation = Backend.Require();
            var result = new JsonObject();
            int budget;
            var seen = Snapshot.Remembered(windowId, out budget);
            WindowRef window;
            try
            {
                window = Windows.Find(windowId);
            }
            catch (Fail)
            {
                // A window seen before and closed since (its OK button, its app quit) has changed, once.
                if (seen == null) throw;
                Snapshot.Forget(windowId);
                result["result"] = "changed";
                return result;
            }
            var watch = Stopwatch.StartNew();
            var first = Print(automation, window, budget);
            if (seen != null && first != seen)
            {
                Snapshot.Remember(windowId, budget, first);
                result["result"] = "changed";
                return result;
            }
            var baseline = first;
            var interval = 150;
            while (watch.ElapsedMilliseconds < timeoutMs)
            {
                Thread.Sleep((int)Math.Min(interval, Math.Max(1, timeoutMs - watch.ElapsedMilliseconds)));
                if (!Windows.Exists(windowId))
                {
                    Snapshot.Forget(windowId);
                    result["result"] = "changed";
                    return result;
                }
                var took = Stopwatch.StartNew();
                var now = Print(automation, window, budget);
                // A big window costs more to read: read it less often, never more than a tenth of the time.
                interval = (int)Math.Max(150, Math.Min(2000, took.ElapsedMilliseconds * 9));
                if (now != baseline)
                {
                    Snapshot.Remember(windowId, budget, now);
                    result["result"] = "changed";
                    return result;
                }
            }
            Snapshot.Remember(windowId, budget, baseline);
            result["result"] = "timeout";
            return result;
        }

        /// <summary>The window's tree read as a snapshot reads it (same budget), as a fingerprint.</summary>
        static string Print(IUIAutomation automation, WindowRef window, int budget)
        {
            var walk = Snapshot.Read(automation, window, budget);
            return Snapshot.Fingerprint(walk.Root);
        }
    }
}
