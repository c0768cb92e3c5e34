// "Show me": what a person does in a watched window, sent as `input` event lines (protocol:
// HELPER_EVENTS in src/protocol/helper.ts), and a remote viewer's input performed as real input.
// Values, checks and selections come from UIA's events on the window's subtree; clicks and keys a
// person makes at the PC from low-level mouse and keyboard hooks (Hooks.cs), the Windows
// counterpart of X RECORD; the helper's own SendInput is marked and reported by `input` instead.
// Events are held briefly and sent in the order they happened; a password's characters are never
// read: its events say `secret` only.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace Deskhook.Uia
{
    public static class Record
    {
        static readonly object Gate = new object();
        static readonly Dictionary<string, Watch> Watches = new Dictionary<string, Watch>();
        static readonly string[] RemoteKeys =
        {
            "Enter", "Tab", "Escape", "Backspace", "Delete", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home",
            "End", "PageUp", "PageDown", "Space",
        };
        static FocusHandler focus;

        public static JsonObject WatchInput(JsonObject args)
        {
            var windowId = Args.Str(args, "windowId");
            var id = Args.Str(args, "watch");
            var automation = Backend.Require();
            var window = Windows.Find(windowId);
            Desktop.RequireReachable(window, "watch it");
            Watch watch;
            lock (Gate)
            {
                if (Watches.ContainsKey(id)) throw new Fail("BAD_REQUEST", "The watch " + id + " is already running");
                watch = new Watch(id, window, automation);
                Watches[id] = watch;
            }
            string reason;
            try
            {
                watch.Start();
                if (focus == null)
                {
                    focus = new FocusHandler();
                    automation.AddFocusChangedEventHandler(null, focus);
                }
                reason = Hooks.Start(OnDevice);
            }
            catch (Exception)
            {
                Stop(id);
                throw;
            }
            var result = new JsonObject();
            result["watch"] = id;
            result["deviceInput"] = reason == null;
            result.Maybe("reason", reason);
            return result;
        }

        public static JsonObject UnwatchInput(JsonObject args)
        {
            Stop(Args.Str(args, "watch"));
            return new JsonObject();
        }

        /// <summary>Ends every watch (stdin closed).</summary>
        public static void StopAll()
        {
            List<string> ids;
            lock (Gate) ids = new List<string>(Watches.Keys);
            foreach (var id in ids) Stop(id);
        }

        static void Stop(string id)
        {
            Watch watch;
            bool last;
            lock (Gate)
            {
                if (!Watches.TryGetValue(id, out watch)) return;
                Watches.Remove(id);
                last = Watches.Count == 0;
            }
            watch.Close();
            if (!last) return;
            Hooks.Stop();
            if (focus != null)
            {
                try { Backend.Require().RemoveFocusChangedEventHandler(focus); }
                catch (Exception error) { Log.Debug("focus handler not removed", "error", error.Message); }
                focus = null;
            }
        }

        static List<Watch> Current()
        {
            lock (Gate) return new List<Watch>(Watches.Values);
        }

        /// <summary>Public: COM reaches a handler through its interfaces, which need a visible class.</summary>
        public sealed class FocusHandler : IUIAutomationFocusChangedEventHandler
        {
            public void HandleFocusChangedEvent(IUIAutomationElement sender)
            {
                try
                {
                    var pid = sender.get_CurrentProcessId();
                    foreach (var watch in Current()) if (watch.Window.Pid == pid) watch.Focused(sender);
                }
                catch (Exception error)
                {
                    Log.Debug("focus event ignored", "error", error.GetType().Name);
                }
            }
        }

        /// <summary>A press a person made (Hooks.cs), on the hooks' worker thread.</summary>
        static void OnDevice(Hooks.Press press)
        {
            foreach (var watch in Current())
            {
                try
                {
                    if (press.Key == null) watch.DeviceClick(press.X, press.Y, press.At);
                    else watch.DeviceKey(press.Key, press.At);
                }
                catch (Exception error)
                {
                    Log.Debug("device event ignored", "error", error.GetType().Name + ": " + error.Message);
                }
            }
        }

        /// <summary>A remote viewer's input, as real input at window-relative pixels; answered once the app settled.</summary>
        public static JsonObject RemoteInput(JsonObject args)
        {
            var windowId = Args.Str(args, "windowId");
            var input = Args.Obj(args, "input");
            var kind = Args.Str(input, "kind");
            if (kind == "key" && Array.IndexOf(RemoteKeys, Args.Str(input, "key")) < 0)
                throw new Fail("UNSUPPORTED_ACTION", "Unknown key \"" + Args.Str(input, "key") + "\"; known: " + string.Join(", ", RemoteKeys));
            if (kind != "click" && kind != "type" && kind != "key" && kind != "scroll")
                throw new Fail("UNSUPPORTED_ACTION", "Unknown input " + kind);
            if (kind == "type") Args.Str(input, "text");
            var automation = Backend.Require();
            var window = Windows.Find(windowId);
            Input.RequireForeground(window, "send input");
            var frame = Windows.FrameBounds(window.Hwnd);
            var watches = Current().FindAll(w => w.Window.Pid == window.Pid);
            if (kind == "click" || kind == "scroll")
            {
                var x = frame.left + (int)Math.Round(Args.Num(input, "x"));
                var y = frame.top + (int)Math.Round(Args.Num(input, "y"));
                var under = Native.WindowFromPoint(new tagPOINT { x = x, y = y });
                if (under == IntPtr.Zero || Native.PidOf(under) != window.Pid)
                    throw new Fail("ELEMENT_OBSCURED", "(" + (x - frame.left) + ", " + (y - frame.top) + ") is outside the window");
                if (kind == "scroll")
                {
                    var delta = -(int)Math.Round(Args.Num(input, "deltaY") * 1.2);
                    if (delta != 0 && Math.Abs(delta) < 120) delta = Math.Sign(delta) * 120;
                    Input.Wheel(x, y, Math.Max(-2400, Math.Min(2400, delta)));
                }
                else
                {
                    // Read before the click: what it does may close the window (OK, Cancel).
                    JsonObject target = null;
                    if (watches.Count > 0)
                    {
                        var element = Targets.Meaningful(automation.ElementFromPoint(new tagPOINT { x = x, y = y }));
                        if (element != null) target = Targets.Of(automation, element, frame, x - frame.left, y - frame.top);
                    }
                    var at = DateTime.UtcNow;
                    Input.Click(x, y, false, 1);
                    if (target != null) foreach (var watch in watches) watch.Emit("click", target, at, null);
                }
            }
            else if (kind == "type")
            {
                try { Input.Type(Args.Str(input, "text")); }
                catch (Fail failure)
                {
                    // Its message never names the text: what is typed may be a password.
                    throw new Fail(failure.Code, "The text could not be typed", failure.Reason);
                }
            }
            else
            {
                var name = Args.Str(input, "key");
                var targets = new Dictionary<Watch, JsonObject>();
                foreach (var watch in watches) targets[watch] = watch.KeyTarget(name);
                var at = DateTime.UtcNow;
                Input.Press(Input.Parse(name));
                foreach (var pair in targets)
                    if (pair.Value != Watch.NotReported) pair.Key.Emit("key", pair.Value, at, name);
            }
            Waits.Settle(window.Hwnd);
            return new JsonObject();
        }
    }
}
