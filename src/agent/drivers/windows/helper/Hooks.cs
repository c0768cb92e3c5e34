// A person's own clicks and keys at the PC, for the input watch: low-level mouse and keyboard hooks
// (WH_MOUSE_LL, WH_KEYBOARD_LL), which see every app's input. Windows drops a hook that answers
// slowly, so the hook thread only queues presses (never what a key types: only named keys and
// shortcuts) and a worker reports them. Input the helper sent itself carries Input.Marker.
using System;
using System.Collections.Concurrent;
using System.Runtime.InteropServices;
using System.Threading;

namespace Deskhook.Uia
{
    public static class Hooks
    {
        public sealed class Press
        {
            public int X, Y;
            /// <summary>The key as a chord ("Enter", "Shift+Tab", "Control+s"); null for a left click.</summary>
            public string Key;
            public DateTime At;
        }

        static readonly object Gate = new object();
        static Thread thread;
        static uint threadId;
        static BlockingCollection<Press> queue;
        static Native.HookProc mouseProc, keyProc; // kept referenced: the hooks call them
        static string reason;

        /// <summary>Starts the hooks if they do not run; returns why a person's input cannot be seen, or null.</summary>
        public static string Start(Action<Press> onPress)
        {
            lock (Gate)
            {
                if (thread != null) return reason;
                queue = new BlockingCollection<Press>(1000);
                var ready = new ManualResetEvent(false);
                reason = null;
                var presses = queue;
                thread = new Thread(() => Run(ready)) { IsBackground = true, Name = "input hooks" };
                thread.Start();
                ready.WaitOne(3000);
                var worker = new Thread(() =>
                {
                    foreach (var press in presses.GetConsumingEnumerable()) onPress(press);
                }) { IsBackground = true, Name = "input reports" };
                worker.SetApartmentState(ApartmentState.MTA);
                worker.Start();
                return reason;
            }
        }

        public static void Stop()
        {
            lock (Gate)
            {
                if (thread == null) return;
                Native.PostThreadMessage(threadId, Native.WM_QUIT, IntPtr.Zero, IntPtr.Zero);
                thread.Join(2000);
                thread = null;
                queue.CompleteAdding();
            }
        }

        static void Run(ManualResetEvent ready)
        {
            threadId = Native.GetCurrentThreadId();
            mouseProc = OnMouse;
            keyProc = OnKey;
            var module = Native.GetModuleHandle(null);
            var mouse = Native.SetWindowsHookEx(Native.WH_MOUSE_LL, mouseProc, module, 0);
            var keys = Native.SetWindowsHookEx(Native.WH_KEYBOARD_LL, keyProc, module, 0);
            if (mouse == IntPtr.Zero || keys == IntPtr.Zero)
                reason = "Windows refused the low-level input hooks (error " + Marshal.GetLastWin32Error() + ")";
            ready.Set();
            Native.MSG msg;
            while (Native.GetMessage(out msg, IntPtr.Zero, 0, 0) > 0) { }
            if (mouse != IntPtr.Zero) Native.UnhookWindowsHookEx(mouse);
            if (keys != IntPtr.Zero) Native.UnhookWindowsHookEx(keys);
        }

        static IntPtr OnMouse(int code, IntPtr wParam, IntPtr lParam)
        {
            if (code >= 0 && (uint)wParam == Native.WM_LBUTTONDOWN)
            {
                var data = (Native.MSLLHOOKSTRUCT)Marshal.PtrToStructure(lParam, typeof(Native.MSLLHOOKSTRUCT));
                if (data.extraInfo != Input.Marker)
                    queue.TryAdd(new Press { X = data.pt.x, Y = data.pt.y, At = DateTime.UtcNow });
            }
            return Native.CallNextHookEx(IntPtr.Zero, code, wParam, lParam);
        }

        static IntPtr OnKey(int code, IntPtr wParam, IntPtr lParam)
        {
            var message = (uint)wParam;
            if (code >= 0 && (message == Native.WM_KEYDOWN || message == Native.WM_SYSKEYDOWN))
            {
                var data = (Native.KBDLLHOOKSTRUCT)Marshal.PtrToStructure(lParam, typeof(Native.KBDLLHOOKSTRUCT));
                if (data.extraInfo != Input.Marker)
                {
                    var name = KeyName(data.vkCode);
                    if (name != null) queue.TryAdd(new Press { Key = name, At = DateTime.UtcNow });
                }
            }
            return Native.CallNextHookEx(IntPtr.Zero, code, wParam, lParam);
        }

        static bool Down(int vk) { return (Native.GetAsyncKeyState(vk) & 0x8000) != 0; }

        /// <summary>A key that is not text, as a chord; null for text and modifiers.</summary>
        static string KeyName(uint vk)
        {
            string name = null;
            switch (vk)
            {
                case 0x0D: name = "Enter"; break;
                case 0x09: name = "Tab"; break;
                case 0x1B: name = "Escape"; break;
                case 0x08: name = "Backspace"; break;
                case 0x2E: name = "Delete"; break;
                case 0x20: name = "Space"; break;
                case 0x26: name = "ArrowUp"; break;
                case 0x28: name = "ArrowDown"; break;
                case 0x25: name = "ArrowLeft"; break;
                case 0x27: name = "ArrowRight"; break;
                case 0x24: name = "Home"; break;
                case 0x23: name = "End"; break;
                case 0x21: name = "PageUp"; break;
                case 0x22: name = "PageDown"; break;
                case 0x2D: name = "Insert"; break;
                case 0x5D: name = "ContextMenu"; break;
            }
            if (vk >= 0x70 && vk <= 0x7B) name = "F" + (vk - 0x6F);
            var modifiers = "";
            if (Down(0x11)) modifiers += "Control+";
            if (Down(0x12)) modifiers += "Alt+";
            if (Down(0x5B) || Down(0x5C)) modifiers += "Meta+";
            if (name != null) return modifiers + (Down(0x10) ? "Shift+" : "") + name;
            // A shortcut (Control+s): the letter names the key, it types nothing.
            if (modifiers.Length > 0 && ((vk >= 0x41 && vk <= 0x5A) || (vk >= 0x30 && vk <= 0x39)))
                return modifiers + char.ToLowerInvariant((char)vk);
            return null;
        }
    }
}
