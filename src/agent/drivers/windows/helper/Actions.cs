// Acting on one element of a snapshot: click (InvokePattern, SelectionItem for items, a real click
// where no pattern fits or another button or count is asked), fill (ValuePattern, RangeValue for
// numbers, typing as the fallback), select (a combo box's or list's items by name), check
// (TogglePattern; a radio button through SelectionItem), keys, focus and read. The element is found
// again from its window by its RuntimeId; a modal dialog of its app blocks every other window of it.
using System;
using System.Diagnostics;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace Deskhook.Uia
{
    public static class Actions
    {
            public static JsonObject Act(JsonObject args)
        {
            var windowId = Args.Str(args, "windowId");
            var action = Args.Obj(args, "action");
            var kind = Args.Str(action, "kind");
            var reference = Args.OptStr(action, "ref");
            switch (kind)
            {
                case "click":
                    var button = Args.OptStr(action, "button") ?? "left";
                    if (button != "left" && button != "right") throw new Fail("BAD_REQUEST", "argument \"button\" must be left or right");
                    var count = Args.OptInt(action, "clickCount", 1) ?? 1;
                    if (count > 3) throw new Fail("BAD_REQUEST", "argument \"clickCount\" must be at most 3");
                    break;
                case "fill": Args.Str(action, "value"); break;
                case "select": Args.StrList(action, "values"); break;
                case "check": Args.Bool(action, "checked"); break;
                case "keys": Args.Str(action, "keys"); break;
                case "focus": case "read": break;
                default: throw new Fail("UNSUPPORTED_ACTION", "Unknown action " + kind);
            }
            if (reference == null && kind != "keys") throw new Fail("BAD_REQUEST", "missing argument \"ref\" (" + kind + " needs one)");

            var automation = Backend.Require();
            var window = Windows.Find(windowId);
            if (reference == null)
            {
                var chords = Input.Parse(Args.Str(action, "keys"));
                Input.RequireForeground(window, "press keys");
                Input.Press(chords);
                Waits.Settle(window.Hwnd);
                return new JsonObject();
            }
            Desktop.RequireReachable(window, kind == "read" ? "read its elements" : "act on it");
            var element = Snapshot.Resolve(automation, window, reference);
            try
            {
                if (kind == "read") return Reading.Read(element);
                CheckReachable(element, window);
                JsonObject result;
                switch (kind)
                {
                    case "click":
                        Click(element, window, Args.OptStr(action, "button") == "right", (int)(Args.OptInt(action, "clickCount") ?? 1));
                        result = new JsonObject();
                        break;
                    case "fill": result = Fill(automation, element, window, Args.Str(action, "value")); break;
                    case "select": result = Select(automation, element, window, Args.StrList(action, "values")); break;
                    case "check": result = Check(element, window, Args.Bool(action, "checked")); break;
                    case "keys":
                        var chords = Input.Parse(Args.Str(action, "keys"));
                        Input.RequireForeground(window, "press keys");
                        element.SetFocus();
                        Input.Press(chords);
                        result = new JsonObject();
                        break;
                    default:
                        element.SetFocus();
                        return new JsonObject();
                }
                Waits.Settle(window.Hwnd);
                return result;
            }
            catch (COMException error)
            {
                throw Backend.Translate(error, kind + " on ref " + reference);
            }
        }

        static string Describe(IUIAutomationElement element)
        {
            try
            {
                return ControlType.Name(element.get_CurrentControlType()) + " \"" + (element.get_CurrentName() ?? "").Trim() + "\"";
            }
            catch (COMException)
            {
                return "element";
            }
        }

        /// <summary>A disabled element, or one behind a modal dialog of its app, takes no action (as for a person).</summary>
        static void CheckReachable(IUIAutomationElement element, WindowRef window)
        {
            if (element.get_CurrentIsEnabled() == 0) throw new Fail("ELEMENT_DISABLED", "The " + Describe(element) + " is disabled");
            var handle = NearestHandle(element);
            var top = handle != IntPtr.Zero ? Native.GetAncestor(handle, Native.GA_ROOT) : window.Hwnd;
            if (Native.IsWindowEnabled(top)) return;
            foreach (var dialog in Windows.DialogsOf(window))
                if (Windows.IsModal(dialog.Hwnd) && dialog.Hwnd != top)
                    throw new Fail("BLOCKED_BY_DIALOG", "The modal dialog \"" + dialog.Title + "\" is open: act on it first");
        }

        static IntPtr NearestHandle(IUIAutomationElement element)
        {
            var walker = Backend.Require().get_ControlViewWalker();
            var node = element;
            for (var depth = 0; node != null && depth < 60; depth++)
            {
                var handle = node.get_CurrentNativeWindowHandle();
                if (handle != IntPtr.Zero) return handle;
                node = walker.GetParentElement(node);
            }
            return IntPtr.Zero;
        }

        static void Click(IUIAutomationElement element, WindowRef window, bool right, int count)
        {
            var type = element.get_CurrentControlType();
            if (!right && count == 1)
            {
                // A person's click on an item selects it (a double click would open it).
                if (type == ControlType.ListItem || type == ControlType.DataItem || type == ControlType.TreeItem || type == ControlType.TabItem)
                {
                    var item = Backend.PatternOf<IUIAutomationSelectionItemPattern>(element, Pattern.SelectionItem);
                    if (item != null) { item.Select(); return; }
                }
                var invoke = Backend.PatternOf<IUIAutomationInvokePattern>(element, Pattern.Invoke);
                if (invoke != null)
                {
                    // Invoke returns once the app ran the handler; one that opens a modal dialog
                    // (WinForms' ShowDialog) keeps it until the dialog closes: the click happened.
                    Patiently(invoke.Invoke, 1500, "invoke");
                    return;
                }
                var expand = Backend.PatternOf<IUIAutomationExpandCollapsePattern>(element, Pattern.ExpandCollapse);
                if (expand != null && type == ControlType.MenuItem)
                {
                    if (expand.get_CurrentExpandCollapseState() == 0) expand.Expand();
                    else expand.Collapse();
                    return;
                }
                var toggle = Backend.PatternOf<IUIAutomationTogglePattern>(element, Pattern.Toggle);
                if (toggle != null) { toggle.Toggle(); return; }
            }
            RealClick(element, window, right, count);
        }

        /// <summary>A call that may not come back while the app runs a modal loop: waited for at most `ms`.</summary>
        static void Patiently(Action call, int ms, string what)
        {
            Exception failure = null;
            var thread = new Thread(() =>
            {
                try { call(); }
                catch (Exception error) { failure = error; }
            }) { IsBackground = true };
            thread.SetApartmentState(ApartmentState.MTA);
            thread.Start();
            if (!thread.Join(ms))
            {
                Log.Info("the app is still handling the " + what + " (a modal dialog?): going on");
                return;
            }
            if (failure is COMException) throw (COMException)failure;
            if (failure != null) throw new Fail("INTERNAL", what + ": " + failure.Message);
        }

        /// <summary>A real mouse click at the element's clickable point (its centre otherwise), once it is on screen.</summary>
        static void RealClick(IUIAutomationElement element, WindowRef window, bool right, int count)
        {
            var point = ClickPoint(element);
            Input.RequireForeground(window, "click");
            var under = Native.WindowFromPoint(point);
            if (under != IntPtr.Zero && Native.PidOf(under) != window.Pid)
            {
                var root = Native.GetAncestor(under, Native.GA_ROOT);
                throw new Fail("ELEMENT_OBSCURED", "The " + Describe(element) + " is covered by the window \"" + Native.WindowText(root) + "\"");
            }
            Input.Click(point.x, point.y, right, count);
        }

        static tagPOINT ClickPoint(IUIAutomationElement element)
        {
            if (element.get_CurrentIsOffscreen() != 0)
            {
                var scroll = Backend.PatternOf<IUIAutomationScrollItemPattern>(element, Pattern.ScrollItem);
                if (scroll != null) scroll.ScrollIntoView();
            }
            tagPOINT point;
            try
            {
                if (element.GetClickablePoint(out point) != 0) return point;
            }
            catch (COMException) { }
            var rect = element.get_CurrentBoundingRectangle();
            if (rect.right <= rect.left || rect.bottom <= rect.top)
                throw new Fail("ELEMENT_OBSCURED", "The " + Describe(element) + " is not on screen");
            return new tagPOINT { x = (rect.left + rect.right) / 2, y = (rect.top + rect.bottom) / 2 };
        }

        static JsonObject Fill(IUIAutomation automation, IUIAutomationElement element, WindowRef window, string value)
        {
            var type = element.get_CurrentControlType();
            if (type == ControlType.ComboBox)
            {
                // An editable combo box holds an entry; one without takes the value as its choice.
                var entry = element.FindFirst(TreeScope.Children, automation.CreatePropertyCondition(Prop.ControlType, ControlType.Edit));
                if (entry == null) return Select(automation, element, window, new List<string> { value });
                element = entry;
            }
            var range = Backend.PatternOf<IUIAutomationRangeValuePattern>(element, Pattern.RangeValue);
            var text = Backend.PatternOf<IUIAutomationValuePattern>(element, Pattern.Value);
            if (range != null && (text == null || type == ControlType.Slider))
            {
                double number;
                if (!double.TryParse(value.Trim(), System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out number))
                    throw new Fail("UNSUPPORTED_ACTION", "\"" + value + "\" is not a number");
                var low = range.get_CurrentMinimum();
                var high = range.get_CurrentMaximum();
                if (number < low || number > high)
                    throw new Fail("UNSUPPORTED_ACTION", value + " is outside " + Backend.NumberText(low) + "…" + Backend.NumberText(high));
                range.SetValue(number);
                return new JsonObject();
            }
            if (text != null && text.get_CurrentIsReadOnly() != 0)
                throw new Fail("UNSUPPORTED_ACTION", "The " + Describe(element) + " is read-only");
            if (text != null && element.get_CurrentIsPassword() == 0)
            {
                text.SetValue(value);
                // Apps that react to typing only (validation on key presses) see a key too: End,
                // which moves the caret and changes nothing.
                if (Desktop.Blocked() == null && Input.Foreground(window.Hwnd))
                {
                    element.SetFocus();
                    Input.Press(Input.Parse("End"));
                }
                return new JsonObject();
            }
            // No ValuePattern (or a password box, which refuses it): type like a person.
            Input.RequireForeground(window, "type");
            element.SetFocus();
            Input.Press(Input.Parse("Control+a"));
            if (value.Length > 0) Input.Type(value);
            else Input.Press(Input.Parse("Delete"));
            return new JsonObject();
        }

        static JsonObject Select(IUIAutomation automation, IUIAutomationElement element, WindowRef window, List<string> values)
        {
            if (values.Count == 0) throw new Fail("BAD_REQUEST", "argument \"values\" must name at least one option");
            var type = element.get_CurrentControlType();
            IUIAutomationExpandCollapsePattern dropdown = null;
            if (type == ControlType.ComboBox)
            {
                // WPF and WinUI create a combo box's items only while its list is open.
                dropdown = Backend.PatternOf<IUIAutomationExpandCollapsePattern>(element, Pattern.ExpandCollapse);
                if (dropdown != null && dropdown.get_CurrentExpandCollapseState() == 0)
                {
                    dropdown.Expand();
                    // Its items appear as the list opens: waited for (bounded), not a fixed pause.
                    var opening = Stopwatch.StartNew();
                    while (Options(automation, element).Count == 0 && opening.ElapsedMilliseconds < 1500) Thread.Sleep(20);
                }
            }
            // The first choice's place in the list and its label, when UI Automation selected it (not a click).
            var selectedAt = -1;
            string selectedLabel = null;
            try
            {
                var items = Options(automation, element);
                if (items.Count == 0) throw new Fail("UNSUPPORTED_ACTION", "The " + Describe(element) + " has no options to select");
                var chosen = new List<int>();
                foreach (var value in values) chosen.Add(Match(items, value));
                for (var i = 0; i < chosen.Count; i++)
                {
                    var option = items[chosen[i]].Value;
                    var item = Backend.PatternOf<IUIAutomationSelectionItemPattern>(option, Pattern.SelectionItem);
                    if (item == null) { Click(option, window, false, 1); continue; }
                    if (i == 0)
                    {
                        item.Select();
                        selectedAt = chosen[i];
                        selectedLabel = items[chosen[i]].Key;
                    }
                    else item.AddToSelection();
                }
            }
            finally
            {
                if (dropdown != null)
                {
                    try { if (dropdown.get_CurrentExpandCollapseState() != 0) dropdown.Collapse(); }
                    catch (COMException) { }
                }
            }
            // A classic Win32 or WinForms combo box may not tell the app about a selection made
            // through UI Automation alone: send it the notifications a person's choice sends (Combo.cs).
            if (type == ControlType.ComboBox && values.Count == 1 && selectedAt >= 0)
                Combo.AfterSelect(element.get_CurrentNativeWindowHandle(), selectedAt, selectedLabel);
            return new JsonObject();
        }

        static List<KeyValuePair<string, IUIAutomationElement>> Options(IUIAutomation automation, IUIAutomationElement element)
        {
            var condition = automation.CreateOrCondition(
                automation.CreatePropertyCondition(Prop.ControlType, ControlType.ListItem),
                automation.CreateOrCondition(
                    automation.CreatePropertyCondition(Prop.ControlType, ControlType.DataItem),
                    automation.CreatePropertyCondition(Prop.ControlType, ControlType.TreeItem)));
            var found = element.FindAll(TreeScope.Descendants, condition);
            var items = new List<KeyValuePair<string, IUIAutomationElement>>();
            var length = found != null ? found.get_Length() : 0;
            for (var i = 0; i < length && i < 5000; i++)
            {
                var item = found.GetElement(i);
                items.Add(new KeyValuePair<string, IUIAutomationElement>(LabelOf(item), item));
            }
            return items;
        }

        public static string LabelOf(IUIAutomationElement item)
        {
            var name = (item.get_CurrentName() ?? "").Trim();
            if (name.Length > 0) return name;
            var texts = Reading.ShownTexts(item, 0);
            return string.Join(" ", texts.ToArray());
        }

        /// <summary>The place in `items` of the option named `wanted` (exactly, else ignoring case and outer spaces).</summary>
        static int Match(List<KeyValuePair<string, IUIAutomationElement>> items, string wanted)
        {
            for (var i = 0; i < items.Count; i++) if (items[i].Key == wanted) return i;
            for (var i = 0; i < items.Count; i++)
                if (string.Equals(items[i].Key.Trim(), wanted.Trim(), StringComparison.CurrentCultureIgnoreCase)) return i;
            var shown = new List<string>();
            foreach (var item in items)
                if (item.Key.Length > 0 && shown.Count < 30) shown.Add("\"" + item.Key + "\"");
            throw new Fail("OPTION_NOT_FOUND", "No option \"" + wanted + "\"; the options are " + (shown.Count > 0 ? string.Join(", ", shown.ToArray()) : "none"));
        }

        public static bool? IsChecked(IUIAutomationElement element)
        {
            var toggle = Backend.PatternOf<IUIAutomationTogglePattern>(element, Pattern.Toggle);
            if (toggle != null) return toggle.get_CurrentToggleState() == 1;
            var item = Backend.PatternOf<IUIAutomationSelectionItemPattern>(element, Pattern.SelectionItem);
            if (item != null) return item.get_CurrentIsSelected() != 0;
            return null;
        }

        static JsonObject Check(IUIAutomationElement element, WindowRef window, bool wanted)
        {
            var result = new JsonObject();
            var now = IsChecked(element);
            if (now == null) throw new Fail("UNSUPPORTED_ACTION", "The " + Describe(element) + " cannot be checked");
            if (now.Value != wanted)
            {
                var toggle = Backend.PatternOf<IUIAutomationTogglePattern>(element, Pattern.Toggle);
                if (toggle != null)
                {
                    // A three-state box goes off → on → indeterminate: at most two toggles reach any state.
                    for (var i = 0; i < 2 && IsChecked(element) != wanted; i++) toggle.Toggle();
                }
                else if (!wanted) throw new Fail("UNSUPPORTED_ACTION", "A radio button is unchecked by choosing another one");
                else Backend.PatternOf<IUIAutomationSelectionItemPattern>(element, Pattern.SelectionItem).Select();
                Waits.Settle(window.Hwnd);
            }
            result["checked"] = IsChecked(element) ?? wanted;
            return result;
        }
    }
}
