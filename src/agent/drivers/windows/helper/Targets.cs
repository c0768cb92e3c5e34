// What an input event happened on: the element a click hit or the focus is in, lifted to what a
// person operated (a combo box for its button or entry, a button for the text inside it), and
// described as a snapshot describes it (HelperEventTarget: its node under a stand-in parent), so
// the host maps it with the snapshot's own mapping.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Deskhook.Uia
{
    public static class Targets
    {
        static readonly HashSet<int> Interactive = new HashSet<int>
        {
            ControlType.Button, ControlType.CheckBox, ControlType.RadioButton, ControlType.ComboBox, ControlType.Edit,
            ControlType.Hyperlink, ControlType.ListItem, ControlType.MenuItem, ControlType.TabItem, ControlType.TreeItem,
            ControlType.DataItem, ControlType.SplitButton, ControlType.Slider, ControlType.Spinner, ControlType.Document,
            ControlType.HeaderItem,
        };

        static IUIAutomationTreeWalker Walker() { return Backend.Require().get_ControlViewWalker(); }

        public static IUIAutomationElement Meaningful(IUIAutomationElement element)
        {
            if (element == null) return null;
            var walker = Walker();
            var type = element.get_CurrentControlType();
            if (type != ControlType.ListItem && type != ControlType.DataItem)
            {
                var outer = Ancestor(element, 3, ControlType.ComboBox, ControlType.Spinner);
                if (outer != null) return outer;
            }
            var node = element;
            for (var depth = 0; node != null && depth < 12; depth++)
            {
                var nodeType = node.get_CurrentControlType();
                if (nodeType == ControlType.Window) break;
                if (Interactive.Contains(nodeType) || Backend.PatternOf<IUIAutomationInvokePattern>(node, Pattern.Invoke) != null)
                    return node;
                node = walker.GetParentElement(node);
            }
            // Nothing to operate: a named text or image still says where the click was.
            return type != ControlType.Pane && type != ControlType.Window && (element.get_CurrentName() ?? "").Trim().Length > 0
                ? element
                : null;
        }

        public static IUIAutomationElement Ancestor(IUIAutomationElement element, int depth, params int[] types)
        {
            var walker = Walker();
            var node = element;
            for (var i = 0; i < depth; i++)
            {
                node = walker.GetParentElement(node);
                if (node == null) return null;
                if (Array.IndexOf(types, node.get_CurrentControlType()) >= 0) return node;
            }
            return null;
        }

        /// <summary>The combo box, list, tree or grid an item was chosen in.</summary>
        public static IUIAutomationElement Container(IUIAutomationElement item)
        {
            return Ancestor(item, 4, ControlType.ComboBox, ControlType.List, ControlType.Tree, ControlType.DataGrid, ControlType.Table);
        }

        public static string Label(IUIAutomationElement item)
        {
            var name = (item.get_CurrentName() ?? "").Trim();
            if (name.Length > 0) return name;
            var walker = Walker();
            var texts = new List<string>();
            var child = walker.GetFirstChildElement(item);
            for (var i = 0; child != null && i < 20; i++)
            {
                var own = (child.get_CurrentName() ?? "").Trim();
                if (own.Length > 0) texts.Add(own);
                child = walker.GetNextSiblingElement(child);
            }
            return string.Join(" ", texts.ToArray());
        }

        public static string ValueOf(IUIAutomationElement element)
        {
            var value = Backend.PatternOf<IUIAutomationValuePattern>(element, Pattern.Value);
            if (value != null) return value.get_CurrentValue() ?? "";
            var range = Backend.PatternOf<IUIAutomationRangeValuePattern>(element, Pattern.RangeValue);
            return range != null ? Backend.NumberText(range.get_CurrentValue()) : null;
        }

        /// <summary>
        /// The element as a snapshot has it, under a stand-in of its parent (whose role decides some
        /// of the model's roles), and where: the click's point, else its centre (window-relative).
        /// </summary>
        public static JsonObject Of(IUIAutomation automation, IUIAutomationElement element, tagRECT frame, int? x, int? y)
        {
            IUIAutomationElement cached;
            var walk = new Snapshot.Walk(automation, 80);
            try
            {
                cached = element.BuildUpdatedCache(walk.WithChildren);
            }
            catch (COMException)
            {
                return null;
            }
            var node = walk.Build(cached, true);
            if (node == null) return null;
            StripValues(node);
            var parent = Walker().GetParentElement(element);
            var tree = new JsonObject();
            tree["ref"] = "parent";
            tree["role"] = parent != null ? ControlType.Name(parent.get_CurrentControlType()) : "Pane";
            tree["name"] = "";
            tree["states"] = new List<object>();
            tree["children"] = new List<object> { node };
            var target = new JsonObject();
            target["tree"] = tree;
            target["ref"] = node["ref"];
            var bounds = node["bounds"] as JsonObject;
            if (x == null && bounds != null)
            {
                x = (int)bounds["x"] + (int)bounds["width"] / 2 - frame.left;
                y = (int)bounds["y"] + (int)bounds["height"] / 2 - frame.top;
            }
            if (x != null)
            {
                var point = new JsonObject();
                point["x"] = x.Value;
                point["y"] = y.Value;
                target["point"] = point;
            }
            return target;
        }

        /// <summary>What fields hold travels as the event's value (never for a secret), not inside its target.</summary>
        static void StripValues(JsonObject node)
        {
            if ((string)node["role"] != "ComboBox") node.Remove("value");
            foreach (JsonObject child in (List<object>)node["children"]) StripValues(child);
        }
    }
}
