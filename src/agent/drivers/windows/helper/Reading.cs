// `read` on one element: the text it shows (a text pattern's whole document, else its value, else
// its name, else the names of what it holds), its value (never a password's), and whether it is
// checked, the way the Linux helper reads one.
using System;
using System.Collections.Generic;

namespace Deskhook.Uia
{
    public static class Reading
    {
        const int MaxText = 20000;

        public static JsonObject Read(IUIAutomationElement element)
        {
            var result = new JsonObject();
            var type = element.get_CurrentControlType();
            var name = (element.get_CurrentName() ?? "").Trim();
            var password = element.get_CurrentIsPassword() != 0;
            var value = Backend.PatternOf<IUIAutomationValuePattern>(element, Pattern.Value);
            var range = Backend.PatternOf<IUIAutomationRangeValuePattern>(element, Pattern.RangeValue);
            string text = null;
            if (!password)
            {
                var textPattern = Backend.PatternOf<IUIAutomationTextPattern>(element, Pattern.Text);
                if (textPattern != null) text = textPattern.get_DocumentRange().GetText(MaxText);
                else if (value != null) text = value.get_CurrentValue();
            }
            else text = "";
            result["text"] = text != null && (text.Trim().Length > 0 || name.Length == 0) ? text : name;
            if (((string)result["text"]).Trim().Length == 0 && value == null)
                // A container that only holds texts (a message box's message) reads as them.
                result["text"] = string.Join(" ", ShownTexts(element, 0).ToArray()).Trim();
            if (password) result["value"] = "";
            else if (value != null) result["value"] = value.get_CurrentValue() ?? "";
            else if (range != null) result["value"] = Backend.NumberText(range.get_CurrentValue());
            else if (type == ControlType.ComboBox || type == ControlType.List)
            {
                var selection = Backend.PatternOf<IUIAutomationSelectionPattern>(element, Pattern.Selection);
                var chosen = selection != null ? selection.GetCurrentSelection() : null;
                if (chosen != null && chosen.get_Length() > 0) result["value"] = Actions.LabelOf(chosen.GetElement(0));
            }
            if (type == ControlType.CheckBox || type == ControlType.RadioButton ||
                Backend.PatternOf<IUIAutomationTogglePattern>(element, Pattern.Toggle) != null)
                result.Maybe("checked", Actions.IsChecked(element));
            return result;
        }

        /// <summary>The names of the elements inside, in the control view's order.</summary>
        public static List<string> ShownTexts(IUIAutomationElement element, int depth)
        {
            var texts = new List<string>();
            var walker = Backend.Require().get_ControlViewWalker();
            var child = walker.GetFirstChildElement(element);
            for (var count = 0; child != null && count < 200; count++)
            {
                var own = (child.get_CurrentName() ?? "").Trim();
                if (own.Length > 0) texts.Add(string.Join(" ", own.Split(new[] { ' ', '\n', '\r', '\t' }, StringSplitOptions.RemoveEmptyEntries)));
                else if (depth < 8) texts.AddRange(ShownTexts(child, depth + 1));
                child = walker.GetNextSiblingElement(child);
            }
            return texts;
        }
    }
}
