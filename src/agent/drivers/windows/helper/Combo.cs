// A classic Win32 or WinForms combo box told what a person's choice would tell it. Selecting an item
// through UI Automation (SelectionItemPattern.Select) changes the box's selection, but the app's
// change handler listens for the box's notifications to its parent window (WM_COMMAND with
// CBN_SELCHANGE; WinForms turns it into SelectedIndexChanged), which that path need not send. So,
// after a selection through UI Automation, the helper sends what pywinauto's ComboBoxWrapper.select
// sends (docs/windows-helper.md): CB_SETCURSEL when the box's selection did not move to the item,
// then CBN_SELENDOK, CBN_SELCHANGE and, for a box with a drop-down list, CBN_CLOSEUP, each posted
// to the parent as WM_COMMAND. The decision and the messages are pure (Plan), tested under mono.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;

namespace Deskhook.Uia
{
    public static class Combo
    {
        public const uint WM_COMMAND = 0x0111, CB_GETCURSEL = 0x0147, CB_GETLBTEXT = 0x0148, CB_GETLBTEXTLEN = 0x0149,
            CB_SETCURSEL = 0x014E;
        public const int CBN_SELCHANGE = 1, CBN_CLOSEUP = 8, CBN_SELENDOK = 9;
        /// <summary>The style bit of a box with a drop-down list: CBS_DROPDOWN (2) and CBS_DROPDOWNLIST (3) have it, CBS_SIMPLE (1) not.</summary>
        public const int CBS_DROPDOWN = 2;
        const int GWL_STYLE = -16, CB_ERR = -1;
        const uint SMTO_ABORTIFHUNG = 2, TimeoutMs = 1000;

        /// <summary>WinForms' combo box: WindowsForms10.COMBOBOX.app.0.&lt;hash&gt;.</summary>
        static readonly Regex WinForms = new Regex(@"^WindowsForms\d*\.COMBOBOX\.", RegexOptions.CultureInvariant);

        /// <summary>
        /// Window classes of combo boxes that take CB_ messages and notify their parent through
        /// WM_COMMAND: Win32's ComboBox, WinForms' WindowsForms10.COMBOBOX.*, and subclasses named
        /// after it (Delphi's TComboBox) — pywinauto's list. ComboBoxEx32 is not one: its inner
        /// ComboBox notifies it, and it notifies its parent through WM_NOTIFY.
        /// </summary>
        public static bool IsWin32ComboBox(string className)
        {
            if (string.IsNullOrEmpty(className)) return false;
            return className == "ComboBox" || WinForms.IsMatch(className) ||
                   className.EndsWith("ComboBox", StringComparison.Ordinal);
        }

        /// <summary>WM_COMMAND's wParam (MAKEWPARAM): the control's id in the low word, the notification in the high word.</summary>
        public static IntPtr CommandWParam(int controlId, int notification)
        {
            return new IntPtr((long)(((uint)(notification & 0xFFFF) << 16) | (uint)(controlId & 0xFFFF)));
        }

        /// <summary>The notifications a finished selection sends, in order; CBN_CLOSEUP only where there is a list to close.</summary>
        public static int[] Notifications(int style)
        {
            return (style & CBS_DROPDOWN) == CBS_DROPDOWN
                ? new[] { CBN_SELENDOK, CBN_SELCHANGE, CBN_CLOSEUP }
                : new[] { CBN_SELENDOK, CBN_SELCHANGE };
        }

        public sealed class Message
        {
            /// <summary>Posted to the parent (a notification), else sent to the box itself.</summary>
            public readonly bool ToParent;
            public readonly uint Id;
            public readonly IntPtr WParam, LParam;
            public Message(bool toParent, uint id, IntPtr wParam, IntPtr lParam)
            {
                ToParent = toParent;
                Id = id;
                WParam = wParam;
                LParam = lParam;
            }
        }

        /// <summary>
        /// What to send after the item at `wanted` (its place in the box's list) was selected through
        /// UI Automation: nothing for a box that is not a Win32 combo box; CB_SETCURSEL when the box's
        /// selection (`current`, CB_GETCURSEL) is elsewhere and its item there is the one chosen
        /// (`wantedIsItem`: its text is the item's, so a list UI Automation shows in another order is
        /// never mis-set); then the notifications, with the box's id and handle.
        /// </summary>
        public static List<Message> Plan(string className, IntPtr combo, int style, int controlId, int current, int wanted,
            bool wantedIsItem)
        {
            var messages = new List<Message>();
            if (!IsWin32ComboBox(className)) return messages;
            if (wanted >= 0 && current != wanted && wantedIsItem)
                messages.Add(new Message(false, CB_SETCURSEL, new IntPtr(wanted), IntPtr.Zero));
            foreach (var code in Notifications(style))
                messages.Add(new Message(true, WM_COMMAND, CommandWParam(controlId, code), combo));
            return messages;
        }

        /// <summary>After `label`, the item at `index` of the box's list, was selected through UI Automation: tell the app.</summary>
        public static void AfterSelect(IntPtr combo, int index, string label)
        {
            if (combo == IntPtr.Zero) return;
            var className = User32.ClassOf(combo);
            if (!IsWin32ComboBox(className)) return;
            var parent = User32.GetParent(combo);
            if (parent == IntPtr.Zero) return;
            var current = Send(combo, CB_GETCURSEL, IntPtr.Zero);
            if (current == null) return; // hung: a notification would wait in its queue for nothing
            var wantedIsItem = current.Value != index && ItemText(combo, index) == label;
            var style = User32.GetWindowLong(combo, GWL_STYLE);
            var plan = Plan(className, combo, style, User32.GetDlgCtrlID(combo), current.Value, index, wantedIsItem);
            foreach (var message in plan)
            {
                if (message.ToParent) User32.PostMessage(parent, message.Id, message.WParam, message.LParam);
                else Send(combo, message.Id, message.WParam);
            }
            Log.Debug("combo box notified", "class", className, "index", index, "selectionWas", current.Value,
                "setCurSel", wantedIsItem, "messages", plan.Count);
        }

        static int? Send(IntPtr hwnd, uint message, IntPtr wParam)
        {
            IntPtr result;
            if (User32.SendMessageTimeout(hwnd, message, wParam, IntPtr.Zero, SMTO_ABORTIFHUNG, TimeoutMs, out result) == IntPtr.Zero)
                return null;
            return (int)result.ToInt64();
        }

        /// <summary>The text of the box's item at `index` (Windows copies it across processes), or null.</summary>
        static string ItemText(IntPtr combo, int index)
        {
            if (index < 0) return null;
            var length = Send(combo, CB_GETLBTEXTLEN, new IntPtr(index));
            if (length == null || length.Value == CB_ERR || length.Value > 4096) return null;
            var text = new StringBuilder(length.Value + 1);
            IntPtr result;
            if (User32.SendMessageTimeout(combo, CB_GETLBTEXT, new IntPtr(index), text, SMTO_ABORTIFHUNG, TimeoutMs, out result) == IntPtr.Zero ||
                (int)result.ToInt64() == CB_ERR)
                return null;
            return text.ToString().Trim();
        }

        static class User32
        {
            [DllImport("user32.dll", CharSet = CharSet.Unicode)] static extern int GetClassName(IntPtr hwnd, StringBuilder text, int max);
            [DllImport("user32.dll")] public static extern IntPtr GetParent(IntPtr hwnd);
            [DllImport("user32.dll")] public static extern int GetDlgCtrlID(IntPtr hwnd);
            [DllImport("user32.dll", EntryPoint = "GetWindowLongW")] public static extern int GetWindowLong(IntPtr hwnd, int index);
            [DllImport("user32.dll", EntryPoint = "PostMessageW")]
            public static extern bool PostMessage(IntPtr hwnd, uint msg, IntPtr wParam, IntPtr lParam);
            [DllImport("user32.dll", EntryPoint = "SendMessageTimeoutW")]
            public static extern IntPtr SendMessageTimeout(IntPtr hwnd, uint msg, IntPtr wParam, IntPtr lParam, uint flags, uint timeoutMs, out IntPtr result);
            [DllImport("user32.dll", EntryPoint = "SendMessageTimeoutW", CharSet = CharSet.Unicode)]
            public static extern IntPtr SendMessageTimeout(IntPtr hwnd, uint msg, IntPtr wParam, StringBuilder lParam, uint flags, uint timeoutMs, out IntPtr result);

            public static string ClassOf(IntPtr hwnd)
            {
                var text = new StringBuilder(256);
                GetClassName(hwnd, text, text.Capacity);
                return text.ToString();
            }
        }
    }
}
