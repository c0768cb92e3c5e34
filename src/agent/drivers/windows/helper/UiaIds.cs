// UI Automation's numeric ids (UIAutomationClient.h) that the helper uses, and the programmatic
// names of the control types: a node's `role` is the ControlType's name without "ControlType."
// ("Button", "Edit", "DataItem"), which src/agent/drivers/windows/roles.ts maps onto the model.
namespace Deskhook.Uia
{
    public static class Prop
    {
        public const int RuntimeId = 30000, BoundingRectangle = 30001, ProcessId = 30002, ControlType = 30003,
            Name = 30005, HasKeyboardFocus = 30008, IsKeyboardFocusable = 30009, IsEnabled = 30010,
            AutomationId = 30011, ClassName = 30012, HelpText = 30013, LabeledBy = 30018, IsPassword = 30019,
            NativeWindowHandle = 30020, IsOffscreen = 30022, FrameworkId = 30024, IsRequiredForForm = 30025,
            IsExpandCollapsePatternAvailable = 30028, IsGridItemPatternAvailable = 30029,
            IsGridPatternAvailable = 30030, IsInvokePatternAvailable = 30031, IsRangeValuePatternAvailable = 30033,
            IsSelectionItemPatternAvailable = 30036, IsSelectionPatternAvailable = 30037,
            IsTablePatternAvailable = 30038, IsTextPatternAvailable = 30040, IsTogglePatternAvailable = 30041,
            IsValuePatternAvailable = 30043, IsWindowPatternAvailable = 30044, ValueValue = 30045,
            ValueIsReadOnly = 30046, RangeValueValue = 30047, RangeValueIsReadOnly = 30048,
            GridItemRow = 30064, GridItemColumn = 30065, ExpandCollapseState = 30070, WindowIsModal = 30077,
            SelectionItemIsSelected = 30079, ToggleState = 30086, IsDataValidForForm = 30103,
            FullDescription = 30159;
    }

    public static class Pattern
    {
        public const int Invoke = 10000, Selection = 10001, Value = 10002, RangeValue = 10003,
            ExpandCollapse = 10005, Window = 10009, SelectionItem = 10010, Table = 10012, Text = 10014,
            Toggle = 10015, ScrollItem = 10017, LegacyIAccessible = 10018;
    }

    public static class UiaEvent
    {
        public const int FocusChanged = 20005, Invoked = 20009, ElementSelected = 20012;
    }

    public static class ControlType
    {
        public const int Button = 50000, CheckBox = 50002, ComboBox = 50003, Edit = 50004, Hyperlink = 50005,
            Image = 50006, ListItem = 50007, List = 50008, Menu = 50009, MenuBar = 50010, MenuItem = 50011,
            RadioButton = 50013, ScrollBar = 50014, Slider = 50015, Spinner = 50016, Tab = 50018,
            TabItem = 50019, Text = 50020, ToolTip = 50022, Tree = 50023, TreeItem = 50024, Custom = 50025,
            Group = 50026, Thumb = 50027, DataGrid = 50028, DataItem = 50029, Document = 50030,
            SplitButton = 50031, Window = 50032, Pane = 50033, Header = 50034, HeaderItem = 50035,
            Table = 50036, TitleBar = 50037, Separator = 50038;

        static readonly string[] Names =
        {
            "Button", "Calendar", "CheckBox", "ComboBox", "Edit", "Hyperlink", "Image", "ListItem", "List",
            "Menu", "MenuBar", "MenuItem", "ProgressBar", "RadioButton", "ScrollBar", "Slider", "Spinner",
            "StatusBar", "Tab", "TabItem", "Text", "ToolBar", "ToolTip", "Tree", "TreeItem", "Custom", "Group",
            "Thumb", "DataGrid", "DataItem", "Document", "SplitButton", "Window", "Pane", "Header",
            "HeaderItem", "Table", "TitleBar", "Separator", "SemanticZoom", "AppBar",
        };

        /// <summary>"Button" for 50000; a control type of a newer Windows is named by its number.</summary>
        public static string Name(int id)
        {
            var index = id - 50000;
            return index >= 0 && index < Names.Length ? Names[index] : "ControlType" + id;
        }
    }

    public static class Hresult
    {
        public const int ElementNotEnabled = unchecked((int)0x80040200);
        public const int ElementNotAvailable = unchecked((int)0x80040201);
        public const int NoClickablePoint = unchecked((int)0x80040202);
        public const int NotSupported = unchecked((int)0x80040204);
        public const int InvalidOperation = unchecked((int)0x80131509);
        public const int Timeout = unchecked((int)0x80131505);
        public const int AccessDenied = unchecked((int)0x80070005);
        public const int RpcDisconnected = unchecked((int)0x80010108);
        public const int RpcServerUnavailable = unchecked((int)0x800706BA);
        public const int RpcCallFailed = unchecked((int)0x800706BE);
        public const int ObjectNotConnected = unchecked((int)0x800401FD);
    }
}
