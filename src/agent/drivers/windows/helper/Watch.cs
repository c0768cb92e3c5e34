// One input watch (Record.cs): UIA's value, toggle and selection events of its window turned into
// `input`, `check` and `select` event lines, a person's clicks and keys into `click` and `key`.
// Typing is coalesced (read once it pauses), and every line is held HoldMs so lines go out in the
// order things happened (a click is seen by the hook after the app's events about it).
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace Deskhook.Uia
{
    public sealed class Watch : IUIAutomationPropertyChangedEventHandler, IUIAutomationEventHandler
    {
        public static readonly JsonObject NotReported = new JsonObject();
        const int CoalesceMs = 80, HoldMs = 150;
        static readonly int[] WatchedProperties = { Prop.ValueValue, Prop.RangeValueValue, Prop.ToggleState };
        static readonly HashSet<string> EditingKeys = new HashSet<string>
        {
            "Backspace", "Delete", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown", "Space",
        };

        public readonly string Id;
        public readonly WindowRef Window;
        readonly IUIAutomation automation;
        IUIAutomationElement root;
        IUIAutomationElement focused;
        readonly object gate = new object();
        readonly Dictionary<string, IUIAutomationElement> pending = new Dictionary<string, IUIAutomationElement>();
        DateTime pendingSince;
        readonly Dictionary<string, string> last = new Dictionary<string, string>();
        readonly List<KeyValuePair<DateTime, JsonObject>> outbox = new List<KeyValuePair<DateTime, JsonObject>>();
        Timer pump;
        bool closed;

        public Watch(string id, WindowRef window, IUIAutomation automation)
        {
            Id = id;
            Window = window;
            this.automation = automation;
        }

        public void Start()
        {
            root = automation.ElementFromHandle(Window.Hwnd);
            automation.AddPropertyChangedEventHandlerNativeArray(root, TreeScope.Subtree, null, this, WatchedProperties, WatchedProperties.Length);
            automation.AddAutomationEventHandler(UiaEvent.ElementSelected, root, TreeScope.Subtree, null, this);
            try { focused = automation.GetFocusedElement(); }
            catch (COMException) { }
            pump = new Timer(_ => Pump(), null, 40, 40);
        }

        /// <summary>Sends what is still held: nothing of this watch comes after its unwatch answer.</summary>
        public void Close()
        {
            try
            {
                automation.RemovePropertyChangedEventHandler(root, this);
                automation.RemoveAutomationEventHandler(UiaEvent.ElementSelected, root, this);
            }
            catch (Exception error)
            {
                Log.Debug("watch handlers not removed", "error", error.Message);
            }
            lock (gate)
            {
                if (pump != null) pump.Dispose();
                Flush();
                Release(DateTime.MaxValue);
                closed = true;
            }
        }

        public void Focused(IUIAutomationElement element)
        {
            lock (gate) focused = element;
        }

        // ── UIA's events, on its threads ──
        public void HandlePropertyChangedEvent(IUIAutomationElement sender, int propertyId, object newValue)
        {
            try
            {
                if (propertyId == Prop.ToggleState) Toggled(sender, newValue is int ? (int)newValue : -1);
                else Changed(sender);
            }
            catch (Exception error)
            {
                Log.Debug("property event ignored", "error", error.GetType().Name);
            }
        }

        public void HandleAutomationEvent(IUIAutomationElement sender, int eventId)
        {
            try { Selected(sender); }
            catch (Exception error) { Log.Debug("selection event ignored", "error", error.GetType().Name); }
        }

        void Changed(IUIAutomationElement element)
        {
            var type = element.get_CurrentControlType();
            var number = type == ControlType.Slider || type == ControlType.Spinner;
            // A field the app filled in by itself: a person types where the focus is.
            if (!number && element.get_CurrentHasKeyboardFocus() == 0 && !Same(element, focused)) return;
            lock (gate)
            {
                if (pending.Count == 0) pendingSince = DateTime.UtcNow;
                pending[Key(element)] = element;
            }
        }

        void Toggled(IUIAutomationElement element, int state)
        {
            var type = element.get_CurrentControlType();
            if (type == ControlType.ComboBox || state < 0) return;
            var value = state == 1 ? "true" : "false";
            if (!Changes("check", Key(element), value)) return;
            Emit("check", Targets.Of(automation, element, Windows.FrameBounds(Window.Hwnd), null, null), DateTime.UtcNow, null, value);
        }

        void Selected(IUIAutomationElement item)
        {
            var type = item.get_CurrentControlType();
            if (type == ControlType.RadioButton)
            {
                if (Changes("check", Key(item), "true"))
                    Emit("check", Targets.Of(automation, item, Windows.FrameBounds(Window.Hwnd), null, null), DateTime.UtcNow, null, "true");
                return;
            }
            if (type == ControlType.TabItem || type == ControlType.MenuItem) return;
            var container = Targets.Container(item);
            if (container == null) return;
            var value = Targets.Label(item);
            if (value.Length == 0 || !Changes("select", Key(container), value)) return;
            Emit("select", Targets.Of(automation, container, Windows.FrameBounds(Window.Hwnd), null, null), DateTime.UtcNow, null, value);
        }

        bool Changes(string kind, string key, string value)
        {
            lock (gate)
            {
                string before;
                if (last.TryGetValue(kind + "|" + key, out before) && before == value) return false;
                last[kind + "|" + key] = value;
                return true;
            }
        }

        // ── a person's clicks and keys ──
        public void DeviceClick(int x, int y, DateTime at)
        {
            var under = Native.WindowFromPoint(new tagPOINT { x = x, y = y });
            if (under == IntPtr.Zero || Native.PidOf(under) != Window.Pid) return;
            var element = Targets.Meaningful(automation.ElementFromPoint(new tagPOINT { x = x, y = y }));
            if (element == null) return;
            var frame = Windows.FrameBounds(Window.Hwnd);
            Emit("click", Targets.Of(automation, element, frame, x - frame.left, y - frame.top), at, null);
        }

        public void DeviceKey(string name, DateTime at)
        {
            // Keys count while the app has the keyboard.
            var front = Native.GetForegroundWindow();
            if (front == IntPtr.Zero || Native.PidOf(front) != Window.Pid) return;
            var target = KeyTarget(name);
            if (target != NotReported) Emit("key", target, at, name);
        }

        /// <summary>What a key is reported on: NotReported when it edits a field (its new value says what it did).</summary>
        public JsonObject KeyTarget(string name)
        {
            IUIAutomationElement current;
            lock (gate) current = focused;
            if (current == null) return null;
            try
            {
                if (EditingKeys.Contains(name))
                {
                    var type = current.get_CurrentControlType();
                    if (type == ControlType.Edit || type == ControlType.Document || type == ControlType.Spinner) return NotReported;
                }
                var target = Targets.Meaningful(current);
                return target == null ? null : Targets.Of(automation, target, Windows.FrameBounds(Window.Hwnd), null, null);
            }
            catch (COMException)
            {
                return null;
            }
        }

        // ── the outbox ──
        public void Emit(string kind, JsonObject target, DateTime at, string key, string value = null, bool secret = false)
        {
            var line = new JsonObject();
            line["event"] = "input";
            line["watch"] = Id;
            line["kind"] = kind;
            if (target != null) line["target"] = target;
            if (secret) line["secret"] = true;
            else if (value != null) line["value"] = value;
            if (key != null) line["key"] = key;
            lock (gate)
            {
                if (closed) return;
                if (kind != "input") Flush();
                var index = outbox.FindIndex(entry => entry.Key > at);
                outbox.Insert(index < 0 ? outbox.Count : index, new KeyValuePair<DateTime, JsonObject>(at, line));
            }
        }

        void Pump()
        {
            lock (gate)
            {
                if (closed) return;
                if (pending.Count > 0 && (DateTime.UtcNow - pendingSince).TotalMilliseconds >= CoalesceMs) Flush();
                Release(DateTime.UtcNow.AddMilliseconds(-HoldMs));
            }
        }

        /// <summary>Typing that paused: each field's value, read once (under `gate`).</summary>
        void Flush()
        {
            if (pending.Count == 0) return;
            var fields = new List<KeyValuePair<string, IUIAutomationElement>>(pending);
            var at = pendingSince;
            pending.Clear();
            foreach (var field in fields)
            {
                try
                {
                    var element = field.Value;
                    var target = Targets.Of(automation, element, Windows.FrameBounds(Window.Hwnd), null, null);
                    if (element.get_CurrentIsPassword() != 0)
                    {
                        Emit("input", target, at, null, null, true);
                        continue;
                    }
                    var value = Targets.ValueOf(element);
                    if (value == null || !Changes("input", field.Key, value)) continue;
                    Emit("input", target, at, null, value);
                }
                catch (COMException)
                {
                    // The field went away before it was read.
                }
            }
        }

        void Release(DateTime upto)
        {
            while (outbox.Count > 0 && outbox[0].Key <= upto)
            {
                Channel.Send(outbox[0].Value);
                outbox.RemoveAt(0);
            }
        }

        static string Key(IUIAutomationElement element)
        {
            return Backend.RefOf(element.GetRuntimeId()) ?? "";
        }

        bool Same(IUIAutomationElement a, IUIAutomationElement b)
        {
            if (a == null || b == null) return false;
            try { return automation.CompareElements(a, b) != 0; }
            catch (COMException) { return false; }
        }
    }
}
