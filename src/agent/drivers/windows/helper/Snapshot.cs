// Snapshots, UFO-style: one window at a time (never the desktop), walked breadth-first under an
// element budget that is applied while walking (docs/windows-helper.md): a node's children are
// asked for only while the budget lasts, so a big grid or mail client gives a trimmed tree at once
// instead of being read whole first. One cache request per window fetches a node's children with
// the few properties each needs in one call (Element|Children); a list, grid, table or tree, whose
// children may be thousands, is walked child by child and stops where the budget does. A node's
// ref is its RuntimeId joined with dots: valid while the element lives, re-found from its window
// when acted on, never kept here.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

namespace Deskhook.Uia
{
    public static class Snapshot
    {
        static readonly int[] Properties =
        {
            Prop.RuntimeId, Prop.ControlType, Prop.Name, Prop.AutomationId, Prop.BoundingRectangle, Prop.IsEnabled,
            Prop.HasKeyboardFocus, Prop.IsOffscreen, Prop.IsPassword, Prop.HelpText, Prop.NativeWindowHandle,
            Prop.LabeledBy, Prop.IsRequiredForForm, Prop.IsDataValidForForm, Prop.IsValuePatternAvailable,
            Prop.ValueValue, Prop.ValueIsReadOnly, Prop.IsRangeValuePatternAvailable, Prop.RangeValueValue,
            Prop.RangeValueIsReadOnly, Prop.IsTogglePatternAvailable, Prop.ToggleState,
            Prop.IsSelectionItemPatternAvailable, Prop.SelectionItemIsSelected, Prop.IsExpandCollapsePatternAvailable,
            Prop.ExpandCollapseState, Prop.IsInvokePatternAvailable, Prop.IsGridItemPatternAvailable, Prop.GridItemRow,
            Prop.GridItemColumn, Prop.IsTablePatternAvailable, Prop.WindowIsModal,
        };

        /// <summary>Properties of newer Windows versions: asked for when this one knows them.</summary>
        static readonly int[] Optional = { Prop.FullDescription };

        /// <summary>Window chrome and scrolling parts: never part of a snapshot (roles.ts skips them too).</summary>
        static readonly HashSet<int> Skipped = new HashSet<int>
        {
            ControlType.TitleBar, ControlType.ScrollBar, ControlType.Thumb, ControlType.Separator, ControlType.ToolTip,
        };

        /// <summary>Roles that say what they do: their patterns are not listed as actions.</summary>
        static readonly HashSet<int> SelfDescribing = new HashSet<int>
        {
            ControlType.Button, ControlType.CheckBox, ControlType.RadioButton, ControlType.ComboBox, ControlType.Edit,
            ControlType.Hyperlink, ControlType.MenuItem, ControlType.SplitButton, ControlType.TabItem, ControlType.Slider,
            ControlType.Spinner, ControlType.Window,
        };

        const int MaxValue = 20000;
        static readonly object StateLock = new object();
        /// <summary>Window id → what it showed at its latest snapshot or wait (a fingerprint, and the budget read with).</summary>
        static readonly Dictionary<string, KeyValuePair<int, string>> Seen = new Dictionary<string, KeyValuePair<int, string>>();

        /// <summary>Containers whose children may be thousands: walked one child at a time.</summary>
        static readonly HashSet<int> Wide = new HashSet<int>
        {
            ControlType.List, ControlType.DataGrid, ControlType.Table, ControlType.Tree,
        };

        /// <summary>A snapshot's properties, cached for the element (`scope` Element) or its children too.</summary>
        public static IUIAutomationCacheRequest Request(IUIAutomation automation, int scope)
        {
            var request = automation.CreateCacheRequest();
            foreach (var property in Properties) request.AddProperty(property);
            foreach (var property in Optional)
            {
                try { request.AddProperty(property); }
                catch (COMException) { }
            }
            request.put_TreeScope(scope);
            request.put_TreeFilter(automation.get_ControlViewCondition());
            return request;
        }

        public static JsonObject Take(JsonObject args)
        {
            var windowId = Args.Str(args, "windowId");
            var budget = (int)Math.Min(Args.Int(args, "maxElements", 1), 100000);
            var automation = Backend.Require();
            var window = Windows.Find(windowId);
            Desktop.RequireReachable(window, "read its elements");
            var watch = Stopwatch.StartNew();
            var walk = Read(automation, window, budget);
            Remember(windowId, budget, Fingerprint(walk.Root));
            var result = new JsonObject();
            result["window"] = Windows.Info(window);
            result["root"] = walk.Root;
            result["truncated"] = walk.Truncated;
            result["elementCount"] = walk.Count;
            result["tookMs"] = Math.Round(watch.Elapsed.TotalMilliseconds, 1);
            return result;
        }

        /// <summary>The window's tree, its app's dialogs that are not inside it following its own content.</summary>
        public static Walk Read(IUIAutomation automation, WindowRef window, int budget)
        {
            var walk = new Walk(automation, budget);
            IUIAutomationElement root;
            try
            {
                root = automation.ElementFromHandleBuildCache(window.Hwnd, walk.WithChildren);
            }
            catch (COMException error)
            {
                throw Backend.Translate(error, "reading the window");
            }
            walk.Root = walk.Build(root, true);
            if (walk.Root == null) throw new Fail("WINDOW_NOT_FOUND", "The window " + window.Id + " closed while it was read");
            var children = (List<object>)walk.Root["children"];
            foreach (var dialog in Windows.DialogsOf(window))
            {
                if (walk.Truncated) break;
                if (walk.Handles.Contains(dialog.Hwnd)) continue;
                try
                {
                    var node = walk.Build(automation.ElementFromHandleBuildCache(dialog.Hwnd, walk.WithChildren), true);
                    if (node != null) children.Add(node);
                }
                catch (COMException error)
                {
                    Log.Debug("dialog not read", "window", dialog.Id, "error", error.Message);
                }
            }
            return walk;
        }

        public static string Fingerprint(JsonObject root)
        {
            var text = Json.Write(root);
            using (var sha = System.Security.Cryptography.SHA1.Create())
                return Convert.ToBase64String(sha.ComputeHash(System.Text.Encoding.UTF8.GetBytes(text)));
        }

        public static void Remember(string windowId, int budget, string fingerprint)
        {
            lock (StateLock) Seen[windowId] = new KeyValuePair<int, string>(budget, fingerprint);
        }

        /// <summary>The fingerprint of the latest look at the window, or null; `budget` is what it was read with.</summary>
        public static string Remembered(string windowId, out int budget)
        {
            lock (StateLock)
            {
                KeyValuePair<int, string> value;
                var found = Seen.TryGetValue(windowId, out value);
                budget = found ? value.Key : 2000;
                return found ? value.Value : null;
            }
        }

        public static void Forget(string windowId)
        {
            lock (StateLock) Seen.Remove(windowId);
        }

        /// <summary>The live element of a ref, found again from its window (and the app's dialogs).</summary>
        public static IUIAutomationElement Resolve(IUIAutomation automation, WindowRef window, string reference)
        {
            var parts = reference.Split(new[] { '.' });
            var runtimeId = new int[parts.Length];
            for (var i = 0; i < parts.Length; i++)
                if (!int.TryParse(parts[i], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out runtimeId[i]))
                    throw new Fail("STALE_REF", "Ref " + reference + " is not an element of this helper: take a new snapshot");
            try
            {
                var condition = automation.CreatePropertyCondition(Prop.RuntimeId, runtimeId);
                var roots = new List<IntPtr> { window.Hwnd };
                foreach (var dialog in Windows.DialogsOf(window)) roots.Add(dialog.Hwnd);
                foreach (var hwnd in roots)
                {
                    var found = automation.ElementFromHandle(hwnd).FindFirst(TreeScope.Subtree, condition);
                    if (found != null) return found;
                }
            }
            catch (COMException error)
            {
                throw Backend.Translate(error, "finding the element again");
            }
            throw new Fail("STALE_REF", "The element of ref " + reference + " is gone: take a new snapshot");
        }

        /// <summary>
        /// An element budget applied while walking: breadth-first, so a long list cannot crowd out
        /// the buttons beside it, and a node's children are asked for only while the budget lasts.
        /// Children come as a lazy sequence, so a wide node's enumeration is left at the budget and
        /// the rest of it is never fetched. Once the budget is spent, the nodes still queued are
        /// asked for one more child each until one has any: then `Truncated` (something was left
        /// out), otherwise the tree fitted exactly. Free of UI Automation so the mono tests drive it.
        /// </summary>
        public sealed class Budget<T> where T : class
        {
            readonly int budget;
            readonly Func<T, IEnumerable<T>> childrenOf;
            readonly Func<T, bool> skipped;
            public int Count { get; private set; }
            public bool Truncated { get; private set; }

            public Budget(int budget, Func<T, IEnumerable<T>> childrenOf, Func<T, bool> skipped)
            {
                this.budget = budget;
                this.childrenOf = childrenOf;
                this.skipped = skipped;
            }

            public sealed class Kept
            {
                public readonly T Node;
                public readonly List<Kept> Children = new List<Kept>();
                public Kept(T node) { Node = node; }
            }

            /// <summary>`top` and the descendants the budget left (shared by every call), or null when none is left.</summary>
            public Kept Walk(T top)
            {
                if (Count >= budget) { Truncated = true; return null; }
                Count++;
                var root = new Kept(top);
                var queue = new Queue<Kept>();
                queue.Enqueue(root);
                while (queue.Count > 0 && !Truncated)
                {
                    var item = queue.Dequeue();
                    foreach (var child in childrenOf(item.Node))
                    {
                        if (skipped(child)) continue;
                        if (Count >= budget) { Truncated = true; break; }
                        Count++;
                        var kept = new Kept(child);
                        item.Children.Add(kept);
                        queue.Enqueue(kept);
                    }
                }
                return root;
            }
        }

        /// <summary>An element, and whether its children came cached with it.</summary>
        public sealed class Cached
        {
            public readonly IUIAutomationElement Element;
            public readonly bool ChildrenCached;
            public Cached(IUIAutomationElement element, bool childrenCached)
            {
                Element = element;
                ChildrenCached = childrenCached;
            }
        }

        public sealed class Walk
        {
            /// <summary>The window's one cache request: an element's properties and its children's.</summary>
            public readonly IUIAutomationCacheRequest WithChildren;
            readonly IUIAutomationCacheRequest alone;
            readonly IUIAutomationTreeWalker walker;
            readonly Budget<Cached> budget;
            public JsonObject Root;
            /// <summary>HWNDs of the elements read: a dialog already inside the window is not added twice.</summary>
            public readonly HashSet<IntPtr> Handles = new HashSet<IntPtr>();

            public Walk(IUIAutomation automation, int budget)
            {
                WithChildren = Request(automation, TreeScope.Element | TreeScope.Children);
                alone = Request(automation, TreeScope.Element);
                walker = automation.get_ControlViewWalker();
                this.budget = new Budget<Cached>(budget, ChildrenOf,
                    cached => Skipped.Contains(Backend.CInt(cached.Element, Prop.ControlType) ?? 0));
            }

            public int Count { get { return budget.Count; } }
            public bool Truncated { get { return budget.Truncated; } }

            /// <summary>The element's node and those of its descendants the budget allows; `childrenCached` when read with WithChildren.</summary>
            public JsonObject Build(IUIAutomationElement element, bool childrenCached)
            {
                var top = budget.Walk(new Cached(element, childrenCached));
                return top == null ? null : Node(top);
            }

            IEnumerable<Cached> ChildrenOf(Cached node)
            {
                if (!node.ChildrenCached && Wide.Contains(Backend.CInt(node.Element, Prop.ControlType) ?? 0))
                    return OneByOne(node.Element);
                var holder = node.Element;
                if (!node.ChildrenCached)
                {
                    try { holder = node.Element.BuildUpdatedCache(WithChildren); }
                    catch (COMException) { return new List<Cached>(); }
                }
                var list = new List<Cached>();
                foreach (var child in CachedChildren(holder)) list.Add(new Cached(child, false));
                return list;
            }

            /// <summary>A wide container's children fetched one per call, for as long as they are asked for.</summary>
            IEnumerable<Cached> OneByOne(IUIAutomationElement parent)
            {
                var child = Fetch(() => walker.GetFirstChildElementBuildCache(parent, alone));
                while (child != null)
                {
                    yield return new Cached(child, false);
                    var previous = child;
                    child = Fetch(() => walker.GetNextSiblingElementBuildCache(previous, alone));
                }
            }

            static IUIAutomationElement Fetch(Func<IUIAutomationElement> call)
            {
                try { return call(); }
                catch (COMException) { return null; }
            }

            static List<IUIAutomationElement> CachedChildren(IUIAutomationElement element)
            {
                var list = new List<IUIAutomationElement>();
                IUIAutomationElementArray children;
                try { children = element.GetCachedChildren(); }
                catch (COMException) { return list; }
                if (children == null) return list;
                var length = children.get_Length();
                for (var i = 0; i < length; i++) list.Add(children.GetElement(i));
                return list;
            }

            JsonObject Node(Budget<Cached>.Kept item)
            {
                var element = item.Node.Element;
                var type = Backend.CInt(element, Prop.ControlType) ?? 0;
                var node = Describe(element, type);
                var handle = Backend.CHandle(element);
                if (handle != IntPtr.Zero) Handles.Add(handle);
                var children = new List<object>();
                foreach (var child in item.Children) children.Add(Node(child));
                if (Backend.CBool(element, Prop.IsTablePatternAvailable)) AddColumns(element, node, children);
                node["children"] = children;
                return node;
            }
        }

        /// <summary>One element as the helper protocol's HelperNode, children left to the caller.</summary>
        public static JsonObject Describe(IUIAutomationElement element, int type)
        {
            var node = new JsonObject();
            node["ref"] = Backend.CRef(element) ?? "none";
            node["role"] = ControlType.Name(type);
            var name = (Backend.CStr(element, Prop.Name) ?? "").Trim();
            node["name"] = name;
            var states = new List<object>();
            node["states"] = states;
            var bounds = Backend.CBounds(element);
            if (bounds != null) node["bounds"] = bounds;
            var password = Backend.CBool(element, Prop.IsPassword);
            if (!Backend.CBool(element, Prop.IsEnabled, true)) states.Add("disabled");
            if (Backend.CBool(element, Prop.IsOffscreen)) states.Add("offscreen");
            if (Backend.CBool(element, Prop.HasKeyboardFocus)) states.Add("focused");
            if (password) states.Add("password");
            if (Backend.CBool(element, Prop.IsTogglePatternAvailable))
            {
                var toggle = Backend.CInt(element, Prop.ToggleState);
                if (toggle == 1) states.Add("checked");
                else if (toggle == 2) states.Add("mixed");
            }
            if (Backend.CBool(element, Prop.IsSelectionItemPatternAvailable) && Backend.CBool(element, Prop.SelectionItemIsSelected))
                states.Add("selected");
            if (Backend.CBool(element, Prop.IsExpandCollapsePatternAvailable))
            {
                var expand = Backend.CInt(element, Prop.ExpandCollapseState);
                if (expand == 1 || expand == 2) states.Add("expanded");
                else if (expand == 0) states.Add("collapsed");
            }
            var hasValue = Backend.CBool(element, Prop.IsValuePatternAvailable);
            var hasRange = Backend.CBool(element, Prop.IsRangeValuePatternAvailable);
            if ((hasValue && Backend.CBool(element, Prop.ValueIsReadOnly)) ||
                (!hasValue && hasRange && Backend.CBool(element, Prop.RangeValueIsReadOnly)))
                states.Add("readonly");
            if (Backend.CBool(element, Prop.WindowIsModal)) states.Add("modal");
            if (Backend.CBool(element, Prop.IsRequiredForForm)) states.Add("required");
            if (!Backend.CBool(element, Prop.IsDataValidForForm, true)) states.Add("invalid");

            // What it holds: never a password's characters.
            if (password) node["value"] = "";
            else if (hasValue) node["value"] = Clip(Backend.CStr(element, Prop.ValueValue) ?? "");
            else if (hasRange)
            {
                var number = Backend.CDouble(element, Prop.RangeValueValue);
                if (number != null) node["value"] = Backend.NumberText(number.Value);
            }
            var help = (Backend.CStr(element, Prop.HelpText) ?? "").Trim();
            var editable = type == ControlType.Edit || type == ControlType.ComboBox || type == ControlType.Spinner ||
                           type == ControlType.Document;
            if (editable) node.Maybe("placeholder", help);
            var description = (Backend.CStr(element, Prop.FullDescription) ?? "").Trim();
            node.Maybe("description", description.Length > 0 ? description : editable ? null : help);
            node.Maybe("automationId", Backend.CStr(element, Prop.AutomationId));
            if (name.Length == 0) node.Maybe("labelledBy", LabelOf(element));
            if (!SelfDescribing.Contains(type)) node.Maybe("actions", Actions(element));
            if (Backend.CBool(element, Prop.IsGridItemPatternAvailable))
            {
                var row = Backend.CInt(element, Prop.GridItemRow);
                var column = Backend.CInt(element, Prop.GridItemColumn);
                if (row != null && row >= 0) node["row"] = row.Value;
                if (column != null && column >= 0) node["column"] = column.Value;
            }
            return node;
        }

        static string Clip(string text) { return text.Length > MaxValue ? text.Substring(0, MaxValue) : text; }

        static string LabelOf(IUIAutomationElement element)
        {
            try
            {
                var label = element.GetCachedPropertyValue(Prop.LabeledBy) as IUIAutomationElement;
                return label == null ? null : (label.get_CurrentName() ?? "").Trim();
            }
            catch (COMException)
            {
                return null;
            }
        }

        static List<object> Actions(IUIAutomationElement element)
        {
            var actions = new List<object>();
            if (Backend.CBool(element, Prop.IsInvokePatternAvailable)) actions.Add("invoke");
            if (Backend.CBool(element, Prop.IsTogglePatternAvailable)) actions.Add("toggle");
            if (Backend.CBool(element, Prop.IsExpandCollapsePatternAvailable)) actions.Add("expandcollapse");
            if (Backend.CBool(element, Prop.IsSelectionItemPatternAvailable)) actions.Add("selectionitem");
            return actions.Count > 0 ? actions : null;
        }

        /// <summary>A table's column headers in column order, and each cell's header by its column.</summary>
        static void AddColumns(IUIAutomationElement element, JsonObject node, List<object> children)
        {
            var columns = new List<object>();
            try
            {
                var table = element.GetCurrentPattern(Pattern.Table) as IUIAutomationTablePattern;
                var headers = table != null ? table.GetCurrentColumnHeaders() : null;
                var length = headers != null ? headers.get_Length() : 0;
                for (var i = 0; i < length; i++) columns.Add((headers.GetElement(i).get_CurrentName() ?? "").Trim());
            }
            catch (COMException error)
            {
                Log.Debug("column headers not read", "error", error.Message);
            }
            if (columns.Count == 0) return;
            node["columns"] = columns;
            SetColumnHeaders(children, columns, 0);
        }

        static void SetColumnHeaders(List<object> nodes, List<object> columns, int depth)
        {
            if (depth > 3) return;
            foreach (JsonObject child in nodes)
            {
                var column = child["column"];
                if (column is int && (int)column < columns.Count && ((string)columns[(int)column]).Length > 0)
                    child["columnHeader"] = columns[(int)column];
                else SetColumnHeaders((List<object>)child["children"], columns, depth + 1);
            }
        }
    }
}
