// The UI Automation client COM interfaces (UIAutomationClient.idl), declared in source: no
// interop assembly to ship, no PowerShell Add-Type. A COM interface's methods are called by their
// place in the vtable, so every interface lists its methods in the IDL's order; those the helper
// never calls keep their place with a placeholder signature (`void Name()`). `uia-helper.exe
// --check-vtables` prints each method's slot so a test can compare them with the IDL.
using System;
using System.Runtime.InteropServices;

namespace Deskhook.Uia
{
    [StructLayout(LayoutKind.Sequential)]
    public struct tagPOINT { public int x; public int y; }

    [StructLayout(LayoutKind.Sequential)]
    public struct tagRECT { public int left; public int top; public int right; public int bottom; }

    public static class TreeScope
    {
        public const int Element = 1, Children = 2, Descendants = 4, Subtree = 7;
    }

    [ComImport, Guid("30cbe57d-d9d0-452a-ab13-7ac5ac4825ee"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomation
    {
        int CompareElements(IUIAutomationElement el1, IUIAutomationElement el2);
        void CompareRuntimeIds();
        IUIAutomationElement GetRootElement();
        IUIAutomationElement ElementFromHandle(IntPtr hwnd);
        IUIAutomationElement ElementFromPoint(tagPOINT pt);
        IUIAutomationElement GetFocusedElement();
        void GetRootElementBuildCache();
        IUIAutomationElement ElementFromHandleBuildCache(IntPtr hwnd, IUIAutomationCacheRequest cacheRequest);
        void ElementFromPointBuildCache();
        void GetFocusedElementBuildCache();
        IUIAutomationTreeWalker CreateTreeWalker(IUIAutomationCondition condition);
        IUIAutomationTreeWalker get_ControlViewWalker();
        void get_ContentViewWalker();
        IUIAutomationTreeWalker get_RawViewWalker();
        void get_RawViewCondition();
        IUIAutomationCondition get_ControlViewCondition();
        void get_ContentViewCondition();
        IUIAutomationCacheRequest CreateCacheRequest();
        IUIAutomationCondition CreateTrueCondition();
        void CreateFalseCondition();
        IUIAutomationCondition CreatePropertyCondition(int propertyId, [MarshalAs(UnmanagedType.Struct)] object value);
        void CreatePropertyConditionEx();
        IUIAutomationCondition CreateAndCondition(IUIAutomationCondition condition1, IUIAutomationCondition condition2);
        void CreateAndConditionFromArray();
        void CreateAndConditionFromNativeArray();
        IUIAutomationCondition CreateOrCondition(IUIAutomationCondition condition1, IUIAutomationCondition condition2);
        void CreateOrConditionFromArray();
        void CreateOrConditionFromNativeArray();
        IUIAutomationCondition CreateNotCondition(IUIAutomationCondition condition);
        void AddAutomationEventHandler(int eventId, IUIAutomationElement element, int scope,
            IUIAutomationCacheRequest cacheRequest, IUIAutomationEventHandler handler);
        void RemoveAutomationEventHandler(int eventId, IUIAutomationElement element, IUIAutomationEventHandler handler);
        void AddPropertyChangedEventHandlerNativeArray(IUIAutomationElement element, int scope,
            IUIAutomationCacheRequest cacheRequest, IUIAutomationPropertyChangedEventHandler handler,
            [MarshalAs(UnmanagedType.LPArray, SizeParamIndex = 5)] int[] propertyArray, int propertyCount);
        void AddPropertyChangedEventHandler();
        void RemovePropertyChangedEventHandler(IUIAutomationElement element, IUIAutomationPropertyChangedEventHandler handler);
        void AddStructureChangedEventHandler();
        void RemoveStructureChangedEventHandler();
        void AddFocusChangedEventHandler(IUIAutomationCacheRequest cacheRequest, IUIAutomationFocusChangedEventHandler handler);
        void RemoveFocusChangedEventHandler(IUIAutomationFocusChangedEventHandler handler);
        void RemoveAllEventHandlers();
        void IntNativeArrayToSafeArray();
        void IntSafeArrayToNativeArray();
        void RectToVariant();
        void VariantToRect();
        void SafeArrayToRectNativeArray();
        void CreateProxyFactoryEntry();
        void get_ProxyFactoryMapping();
        void GetPropertyProgrammaticName();
        void GetPatternProgrammaticName();
        void PollForPotentialSupportedPatterns();
        void PollForPotentialSupportedProperties();
        int CheckNotSupported([MarshalAs(UnmanagedType.Struct)] object value);
        [return: MarshalAs(UnmanagedType.IUnknown)] object get_ReservedNotSupportedValue();
        void get_ReservedMixedAttributeValue();
        void ElementFromIAccessible();
        void ElementFromIAccessibleBuildCache();
    }

    /// <summary>IUIAutomation's 55 methods (placeholders here: called through IUIAutomation), then its own.</summary>
    [ComImport, Guid("34723aff-0c9d-49d0-9896-7ab52df8cd8a"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomation2
    {
        void _01(); void _02(); void _03(); void _04(); void _05(); void _06(); void _07(); void _08(); void _09(); void _10();
        void _11(); void _12(); void _13(); void _14(); void _15(); void _16(); void _17(); void _18(); void _19(); void _20();
        void _21(); void _22(); void _23(); void _24(); void _25(); void _26(); void _27(); void _28(); void _29(); void _30();
        void _31(); void _32(); void _33(); void _34(); void _35(); void _36(); void _37(); void _38(); void _39(); void _40();
        void _41(); void _42(); void _43(); void _44(); void _45(); void _46(); void _47(); void _48(); void _49(); void _50();
        void _51(); void _52(); void _53(); void _54(); void _55();
        int get_AutoSetFocus();
        void put_AutoSetFocus(int autoSetFocus);
        uint get_ConnectionTimeout();
        void put_ConnectionTimeout(uint timeout);
        uint get_TransactionTimeout();
        void put_TransactionTimeout(uint timeout);
    }

    [ComImport, Guid("d22108aa-8ac5-49a5-837b-37bbb3d7591e"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationElement
    {
        void SetFocus();
        [return: MarshalAs(UnmanagedType.SafeArray, SafeArraySubType = VarEnum.VT_I4)] int[] GetRuntimeId();
        IUIAutomationElement FindFirst(int scope, IUIAutomationCondition condition);
        IUIAutomationElementArray FindAll(int scope, IUIAutomationCondition condition);
        IUIAutomationElement FindFirstBuildCache(int scope, IUIAutomationCondition condition, IUIAutomationCacheRequest cacheRequest);
        IUIAutomationElementArray FindAllBuildCache(int scope, IUIAutomationCondition condition, IUIAutomationCacheRequest cacheRequest);
        IUIAutomationElement BuildUpdatedCache(IUIAutomationCacheRequest cacheRequest);
        [return: MarshalAs(UnmanagedType.Struct)] object GetCurrentPropertyValue(int propertyId);
        void GetCurrentPropertyValueEx();
        [return: MarshalAs(UnmanagedType.Struct)] object GetCachedPropertyValue(int propertyId);
        void GetCachedPropertyValueEx();
        void GetCurrentPatternAs();
        void GetCachedPatternAs();
        [return: MarshalAs(UnmanagedType.IUnknown)] object GetCurrentPattern(int patternId);
        void GetCachedPattern();
        IUIAutomationElement GetCachedParent();
        IUIAutomationElementArray GetCachedChildren();
        int get_CurrentProcessId();
        int get_CurrentControlType();
        void get_CurrentLocalizedControlType();
        [return: MarshalAs(UnmanagedType.BStr)] string get_CurrentName();
        void get_CurrentAcceleratorKey();
        void get_CurrentAccessKey();
        int get_CurrentHasKeyboardFocus();
        void get_CurrentIsKeyboardFocusable();
        int get_CurrentIsEnabled();
        [return: MarshalAs(UnmanagedType.BStr)] string get_CurrentAutomationId();
        [return: MarshalAs(UnmanagedType.BStr)] string get_CurrentClassName();
        void get_CurrentHelpText();
        void get_CurrentCulture();
        void get_CurrentIsControlElement();
        void get_CurrentIsContentElement();
        int get_CurrentIsPassword();
        IntPtr get_CurrentNativeWindowHandle();
        void get_CurrentItemType();
        int get_CurrentIsOffscreen();
        void get_CurrentOrientation();
        void get_CurrentFrameworkId();
        void get_CurrentIsRequiredForForm();
        void get_CurrentItemStatus();
        tagRECT get_CurrentBoundingRectangle();
        void get_CurrentLabeledBy();
        void get_CurrentAriaRole();
        void get_CurrentAriaProperties();
        void get_CurrentIsDataValidForForm();
        void get_CurrentControllerFor();
        void get_CurrentDescribedBy();
        void get_CurrentFlowsTo();
        void get_CurrentProviderDescription();
        void get_CachedProcessId();
        void get_CachedControlType();
        void get_CachedLocalizedControlType();
        void get_CachedName();
        void get_CachedAcceleratorKey();
        void get_CachedAccessKey();
        void get_CachedHasKeyboardFocus();
        void get_CachedIsKeyboardFocusable();
        void get_CachedIsEnabled();
        void get_CachedAutomationId();
        void get_CachedClassName();
        void get_CachedHelpText();
        void get_CachedCulture();
        void get_CachedIsControlElement();
        void get_CachedIsContentElement();
        void get_CachedIsPassword();
        void get_CachedNativeWindowHandle();
        void get_CachedItemType();
        void get_CachedIsOffscreen();
        void get_CachedOrientation();
        void get_CachedFrameworkId();
        void get_CachedIsRequiredForForm();
        void get_CachedItemStatus();
        void get_CachedBoundingRectangle();
        void get_CachedLabeledBy();
        void get_CachedAriaRole();
        void get_CachedAriaProperties();
        void get_CachedIsDataValidForForm();
        void get_CachedControllerFor();
        void get_CachedDescribedBy();
        void get_CachedFlowsTo();
        void get_CachedProviderDescription();
        int GetClickablePoint(out tagPOINT clickable);
    }

    [ComImport, Guid("14314595-b4bc-4055-95f2-58f2e42c9855"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationElementArray
    {
        int get_Length();
        IUIAutomationElement GetElement(int index);
    }

    [ComImport, Guid("352ffba8-0973-437c-a61f-f64cafd81df9"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationCondition { }

    [ComImport, Guid("b32a92b5-bc25-4078-9c08-d7ee95c48e03"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationCacheRequest
    {
        void AddProperty(int propertyId);
        void AddPattern(int patternId);
        IUIAutomationCacheRequest Clone();
        int get_TreeScope();
        void put_TreeScope(int scope);
        IUIAutomationCondition get_TreeFilter();
        void put_TreeFilter(IUIAutomationCondition filter);
        int get_AutomationElementMode();
        void put_AutomationElementMode(int mode);
    }

    [ComImport, Guid("4042c624-389c-4afc-a630-9df854a541fc"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationTreeWalker
    {
        IUIAutomationElement GetParentElement(IUIAutomationElement element);
        IUIAutomationElement GetFirstChildElement(IUIAutomationElement element);
        void GetLastChildElement();
        IUIAutomationElement GetNextSiblingElement(IUIAutomationElement element);
        void GetPreviousSiblingElement();
        void NormalizeElement();
        void GetParentElementBuildCache();
        IUIAutomationElement GetFirstChildElementBuildCache(IUIAutomationElement element, IUIAutomationCacheRequest cacheRequest);
        void GetLastChildElementBuildCache();
        IUIAutomationElement GetNextSiblingElementBuildCache(IUIAutomationElement element, IUIAutomationCacheRequest cacheRequest);
    }

    // ── event handlers: implemented here, called by UI Automation on its own threads ─────────────
    [ComImport, Guid("146c3c17-f12e-4e22-8c27-f894b9b79c69"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationEventHandler
    {
        void HandleAutomationEvent(IUIAutomationElement sender, int eventId);
    }

    [ComImport, Guid("40cd37d4-c756-4b0c-8c6f-bddfeeb13b50"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationPropertyChangedEventHandler
    {
        void HandlePropertyChangedEvent(IUIAutomationElement sender, int propertyId, [MarshalAs(UnmanagedType.Struct)] object newValue);
    }

    [ComImport, Guid("c270f6b5-5c69-4290-9745-7a7f97169468"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationFocusChangedEventHandler
    {
        void HandleFocusChangedEvent(IUIAutomationElement sender);
    }

    // ── control patterns ─────────────────────────────────────────────────────────────────────────
    [ComImport, Guid("fb377fbe-8ea6-46d5-9c73-6499642d3059"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationInvokePattern
    {
        void Invoke();
    }

    [ComImport, Guid("a94cd8b1-0844-4cd6-9d2d-640537ab39e9"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationValuePattern
    {
        void SetValue([MarshalAs(UnmanagedType.BStr)] string val);
        [return: MarshalAs(UnmanagedType.BStr)] string get_CurrentValue();
        int get_CurrentIsReadOnly();
    }

    [ComImport, Guid("59213f4f-7346-49e5-b120-80555987a148"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationRangeValuePattern
    {
        void SetValue(double val);
        double get_CurrentValue();
        int get_CurrentIsReadOnly();
        double get_CurrentMaximum();
        double get_CurrentMinimum();
    }

    [ComImport, Guid("a8efa66a-0fda-421a-9194-38021f3578ea"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationSelectionItemPattern
    {
        void Select();
        void AddToSelection();
        void RemoveFromSelection();
        int get_CurrentIsSelected();
    }

    [ComImport, Guid("5ed5202e-b2ac-47a6-b638-4b0bf140d78e"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationSelectionPattern
    {
        IUIAutomationElementArray GetCurrentSelection();
        int get_CurrentCanSelectMultiple();
    }

    [ComImport, Guid("619be086-1f4e-4ee4-bafa-210128738730"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationExpandCollapsePattern
    {
        void Expand();
        void Collapse();
        int get_CurrentExpandCollapseState();
    }

    [ComImport, Guid("94cf8058-9b8d-4ab9-8bfd-4cd0a33c8c70"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationTogglePattern
    {
        void Toggle();
        int get_CurrentToggleState();
    }

    [ComImport, Guid("b488300f-d015-4f19-9c29-bb595e3645ef"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationScrollItemPattern
    {
        void ScrollIntoView();
    }

    [ComImport, Guid("620e691c-ea96-4710-a850-754b24ce2417"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationTablePattern
    {
        void GetCurrentRowHeaders();
        IUIAutomationElementArray GetCurrentColumnHeaders();
    }

    [ComImport, Guid("0faef453-9208-43ef-bbb2-3b485177864f"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationWindowPattern
    {
        void Close();
        int WaitForInputIdle(int milliseconds);
        void SetWindowVisualState(int state);
        void get_CurrentCanMaximize();
        void get_CurrentCanMinimize();
        int get_CurrentIsModal();
    }

    [ComImport, Guid("32eba289-3583-42c9-9c59-3b6d9a1e9b6a"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationTextPattern
    {
        void RangeFromPoint();
        void RangeFromChild();
        void GetSelection();
        void GetVisibleRanges();
        IUIAutomationTextRange get_DocumentRange();
    }

    [ComImport, Guid("a543cc6a-f4ae-494b-8239-c814481187a8"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationTextRange
    {
        void Clone();
        void Compare();
        void CompareEndpoints();
        void ExpandToEnclosingUnit();
        void FindAttribute();
        void FindText();
        void GetAttributeValue();
        void GetBoundingRectangles();
        void GetEnclosingElement();
        [return: MarshalAs(UnmanagedType.BStr)] string GetText(int maxLength);
    }

    [ComImport, Guid("828055ad-355b-4435-86d5-3b51c14a9b1b"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]
    public interface IUIAutomationLegacyIAccessiblePattern
    {
        void Select(int flagsSelect);
        void DoDefaultAction();
    }
}
