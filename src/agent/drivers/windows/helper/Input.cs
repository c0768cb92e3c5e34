// Synthetic input through SendInput, as a person's would arrive: the window is brought to the
// foreground first, clicks land at physical pixels (the helper is per-monitor DPI aware, like UIA's
// bounds), keys are chords ("Control+A Delete", "Shift+Tab") as src/agent/drivers/browser/keyboard.ts
// reads them, text is typed as Unicode characters. Every event carries a marker in dwExtraInfo so
// the input watch (Record.cs) tells the helper's own input from a person's.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace Deskhook.Uia
{
    public static class Input
    {
        public static readonly IntPtr Marker = new IntPtr(0x44484B31); // "DHK1"
        const uint INPUT_MOUSE = 0, INPUT_KEYBOARD = 1;
        const uint KEYEVENTF_EXTENDEDKEY = 1, KEYEVENTF_KEYUP = 2, KEYEVENTF_UNICODE = 4;
        const uint MOUSEEVENTF_LEFTDOWN = 2, MOUSEEVENTF_LEFTUP = 4, MOUSEEVENTF_RIGHTDOWN = 8, MOUSEEVENTF_RIGHTUP = 0x10,
            MOUSEEVENTF_WHEEL = 0x800;

        public struct Key
        {
            public ushort Vk;
            public bool Extended;
            /// <summary>A character typed as itself (no key of the layout needed).</summary>
            public char? Text;
        }

        static readonly Dictionary<string, Key> Named = new Dictionary<string, Key>(StringComparer.Ordinal);
        static readonly Dictionary<string, ushort> Modifiers = new Dictionary<string, ushort>
        {
            { "Control", 0x11 }, { "Ctrl", 0x11 }, { "Alt", 0x12 }, { "Option", 0x12 }, { "Shift", 0x10 },
            { "Meta", 0x5B }, { "Cmd", 0x5B },
        };

        static Input()
        {
            Add(0x0D, false, "Enter", "Return");
            Add(0x09, false, "Tab");
            Add(0x1B, false, "Escape", "Esc");
            Add(0x08, false, "Backspace");
            Add(0x2E, true, "Delete", "Del");
            Add(0x20, false, "Space");
            Add(0x26, true, "ArrowUp", "Up");
            Add(0x28, true, "ArrowDown", "Down");
            Add(0x25, true, "ArrowLeft", "Left");
            Add(0x27, true, "ArrowRight", "Right");
            Add(0x24, true, "Home");
            Add(0x23, true, "End");
            Add(0x21, true, "PageUp");
            Add(0x22, true, "PageDown");
            Add(0x2D, true, "Insert");
            Add(0x5D, true, "ContextMenu");
            for (var n = 1; n <= 12; n++) Add((ushort)(0x6F + n), false, "F" + n);
        }

        static void Add(ushort vk, bool extended, params string[] names)
        {
            foreach (var name in names) Named[name] = new Key { Vk = vk, Extended = extended };
        }

        public static bool IsNamed(string name) { return Named.ContainsKey(name); }

        public sealed class Chord
        {
            public readonly List<ushort> Modifiers = new List<ushort>();
            public Key Key;
        }

        /// <summary>Chords separated by spaces, modifiers and one key joined with "+"; "+" alone is the plus key.</summary>
        public static List<Chord> Parse(string keys)
        {
            var chords = new List<Chord>();
            foreach (var chord in keys.Split(new[] { ' ', '\t', '\n' }, StringSplitOptions.RemoveEmptyEntries))
            {
                List<string> parts;
                if (chord.Length > 1 && chord.EndsWith("+", StringComparison.Ordinal))
                {
                    parts = new List<string>(chord.Substring(0, chord.Length - 2).Split(new[] { '+' }));
                    parts.Add("+");
                }
                else parts = new List<string>(chord.Split(new[] { '+' }));
                var parsed = new Chord();
                for (var i = 0; i < parts.Count - 1; i++)
                {
                    ushort vk;
                    if (!Modifiers.TryGetValue(parts[i], out vk))
                        throw new Fail("UNSUPPORTED_ACTION", "Unknown modifier \"" + parts[i] + "\" in \"" + chord + "\"");
                    parsed.Modifiers.Add(vk);
                }
                parsed.Key = KeyOf(parts[parts.Count - 1], chord, parsed.Modifiers);
                chords.Add(parsed);
            }
            if (chords.Count == 0) throw new Fail("UNSUPPORTED_ACTION", "No keys given");
            return chords;
        }

        static Key KeyOf(string name, string chord, List<ushort> modifiers)
        {
            Key key;
            if (Named.TryGetValue(name, out key)) return key;
            if (name.Length != 1) throw new Fail("UNSUPPORTED_ACTION", "Unknown key \"" + name + "\" in \"" + chord + "\"");
            var c = name[0];
            var shortcut = modifiers.Exists(m => m != 0x10);
            // A character on its own is typed as itself; with Control or Alt it is the key that bears it.
            if (!shortcut) return new Key { Text = c };
            if (c >= 'a' && c <= 'z') return new Key { Vk = (ushort)char.ToUpperInvariant(c) };
            if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return new Key { Vk = c };
            var scan = Native.VkKeyScan(c);
            if (scan == -1) throw new Fail("UNSUPPORTED_ACTION", "No key types \"" + c + "\" on this keyboard layout");
            return new Key { Vk = (ushort)(scan & 0xFF) };
        }

        public static void Press(List<Chord> chords)
        {
            foreach (var chord in chords)
            {
                var inputs = new List<Native.INPUT>();
                foreach (var vk in chord.Modifiers) inputs.Add(KeyInput(vk, false, false));
                if (chord.Key.Text != null)
                {
                    inputs.Add(CharInput(chord.Key.Text.Value, false));
                    inputs.Add(CharInput(chord.Key.Text.Value, true));
                }
                else
                {
                    inputs.Add(KeyInput(chord.Key.Vk, chord.Key.Extended, false));
                    inputs.Add(KeyInput(chord.Key.Vk, chord.Key.Extended, true));
                }
                for (var i = chord.Modifiers.Count - 1; i >= 0; i--) inputs.Add(KeyInput(chord.Modifiers[i], false, true));
                Send(inputs, "press keys");
                Thread.Sleep(15);
            }
        }

        /// <summary>Text as Unicode characters; a line break is Enter, a tab is Tab.</summary>
        public static void Type(string text)
        {
            var inputs = new List<Native.INPUT>();
            foreach (var c in text)
            {
                if (c == '\r') continue;
                if (c == '\n' || c == '\t')
                {
                    var vk = (ushort)(c == '\n' ? 0x0D : 0x09);
                    inputs.Add(KeyInput(vk, false, false));
                    inputs.Add(KeyInput(vk, false, true));
                    continue;
                }
                inputs.Add(CharInput(c, false));
                inputs.Add(CharInput(c, true));
            }
            // In slices: a long text sent at once can outrun an app's message queue.
            for (var at = 0; at < inputs.Count; at += 64)
            {
                Send(inputs.GetRange(at, Math.Min(64, inputs.Count - at)), "type text");
                Thread.Sleep(5);
            }
        }

        public static void Click(int x, int y, bool right, int count)
        {
            Native.SetCursorPos(x, y);
            Thread.Sleep(20);
            var down = right ? MOUSEEVENTF_RIGHTDOWN : MOUSEEVENTF_LEFTDOWN;
            var up = right ? MOUSEEVENTF_RIGHTUP : MOUSEEVENTF_LEFTUP;
            var inputs = new List<Native.INPUT>();
            for (var i = 0; i < count; i++)
            {
                inputs.Add(MouseInput(down, 0));
                inputs.Add(MouseInput(up, 0));
            }
            Send(inputs, "click");
        }

        public static void Wheel(int x, int y, int delta)
        {
            Native.SetCursorPos(x, y);
            Send(new List<Native.INPUT> { MouseInput(MOUSEEVENTF_WHEEL, unchecked((uint)delta)) }, "scroll");
        }

        static void Send(List<Native.INPUT> inputs, string doing)
        {
            if (inputs.Count == 0) return;
            var sent = Native.SendInput((uint)inputs.Count, inputs.ToArray(), Marshal.SizeOf(typeof(Native.INPUT)));
            if (sent == inputs.Count) return;
            var error = Marshal.GetLastWin32Error();
            Desktop.RequireInteractive(doing);
            throw new Fail("ACCESS_DENIED",
                "Windows blocked the helper's input (" + doing + ", error " + error + "): the window in front runs elevated, or the desktop does not take input",
                "ELEVATED");
        }

        static Native.INPUT KeyInput(ushort vk, bool extended, bool up)
        {
            var input = new Native.INPUT { type = INPUT_KEYBOARD };
            input.u.ki = new Native.KEYBDINPUT
            {
                wVk = vk,
                dwFlags = (extended ? KEYEVENTF_EXTENDEDKEY : 0) | (up ? KEYEVENTF_KEYUP : 0),
                dwExtraInfo = Marker,
            };
            return input;
        }

        static Native.INPUT CharInput(char c, bool up)
        {
            var input = new Native.INPUT { type = INPUT_KEYBOARD };
            input.u.ki = new Native.KEYBDINPUT { wScan = c, dwFlags = KEYEVENTF_UNICODE | (up ? KEYEVENTF_KEYUP : 0), dwExtraInfo = Marker };
            return input;
        }

        static Native.INPUT MouseInput(uint flags, uint data)
        {
            var input = new Native.INPUT { type = INPUT_MOUSE };
            input.u.mi = new Native.MOUSEINPUT { dwFlags = flags, mouseData = data, dwExtraInfo = Marker };
            return input;
        }

        /// <summary>
        /// Brings the window to the foreground, as a person's click on its title bar would; Windows
        /// lets a background process do so only right after input, hence the Alt tap when refused.
        /// </summary>
        public static bool Foreground(IntPtr hwnd)
        {
            if (Native.IsIconic(hwnd)) Native.ShowWindow(hwnd, Native.SW_RESTORE);
            if (IsForeground(hwnd)) return true;
            Native.SetForegroundWindow(hwnd);
            if (Wait(hwnd, 200)) return true;
            var alt = new List<Native.INPUT> { KeyInput(0x12, false, false), KeyInput(0x12, false, true) };
            Native.SendInput((uint)alt.Count, alt.ToArray(), Marshal.SizeOf(typeof(Native.INPUT)));
            Native.SetForegroundWindow(hwnd);
            Native.BringWindowToTop(hwnd);
            return Wait(hwnd, 500);
        }

        static bool Wait(IntPtr hwnd, int ms)
        {
            for (var waited = 0; waited <= ms; waited += 20)
            {
                if (IsForeground(hwnd)) return true;
                Thread.Sleep(20);
            }
            return false;
        }

        /// <summary>The foreground window is this one, or one it owns (its open dialog, a menu).</summary>
        static bool IsForeground(IntPtr hwnd)
        {
            var front = Native.GetForegroundWindow();
            return front == hwnd || (front != IntPtr.Zero && Native.GetAncestor(front, Native.GA_ROOTOWNER) == Native.GetAncestor(hwnd, Native.GA_ROOTOWNER));
        }

        /// <summary>Brings the window forward or says why input cannot reach it.</summary>
        public static void RequireForeground(WindowRef window, string doing)
        {
            Desktop.RequireInteractive(doing);
            Desktop.RequireReachable(window, doing);
            if (!Foreground(window.Hwnd))
                Log.Warn("the window did not come to the foreground; input goes to whatever is in front", "window", window.Id);
        }
    }
}
