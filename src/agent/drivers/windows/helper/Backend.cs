// The UI Automation client: created once, on first use, with its timeouts set, or the reason it
// cannot be (not Windows, no UIAutomationCore): then every command that needs it fails with a
// typed error and the helper goes on answering. Also the readers of cached property values and
// the one place where COM failures become protocol errors.
using System;
using System.Globalization;
using System.Runtime.InteropServices;

namespace Deskhook.Uia
{
    public static class Backend
    {
        static readonly object Gate = new object();
        static IUIAutomation automation;
        static string unavailable;
        static object notSupported;

        /// <summary>How long UIA waits to reach an app, and for one answer of it (ms): well inside the host's deadline.</summary>
        public const uint ConnectionTimeoutMs = 2000, TransactionTimeoutMs = 8000;

        public static bool IsWindows { get { return Environment.OSVersion.Platform == PlatformID.Win32NT; } }

        /// <summary>The client, or a DISCONNECTED failure saying why there is none.</summary>
        public static IUIAutomation Require()
        {
            lock (Gate)
            {
                if (automation == null && unavailable == null) Create();
                if (automation == null)
                    throw new Fail("DISCONNECTED", "The UI Automation backend is unavailable: " + unavailable);
                return automation;
            }
        }

        /// <summary>For hello: "available" or why not (without creating it on a machine that has none).</summary>
        public static string Status()
        {
            if (!IsWindows) return "unavailable (not Windows)";
            lock (Gate)
            {
                if (automation == null && unavailable == null) Create();
                return automation != null ? "available" : "unavailable (" + unavailable + ")";
            }
        }

        static void Create()
        {
            if (!IsWindows)
            {
                unavailable = "this is " + Environment.OSVersion.Platform + ", not Windows: UI Automation exists on Windows only";
                return;
            }
            try
            {
                // CUIAutomation8 (Windows 8+): IUIAutomation2 and later, with settable timeouts.
                var type = Type.GetTypeFromCLSID(new Guid("e22ad333-b25f-460c-83d0-0581107395c9"), true);
                var created = Activator.CreateInstance(type);
                automation = (IUIAutomation)created;
                var second = created as IUIAutomation2;
                if (second != null)
                {
                    second.put_ConnectionTimeout(ConnectionTimeoutMs);
                    second.put_TransactionTimeout(TransactionTimeoutMs);
                }
                else Log.Warn("IUIAutomation2 missing: UIA's default timeouts apply");
                notSupported = automation.get_ReservedNotSupportedValue();
                Log.Info("UI Automation client created", "connectionTimeoutMs", ConnectionTimeoutMs,
                    "transactionTimeoutMs", TransactionTimeoutMs);
            }
            catch (Exception error)
            {
                automation = null;
                unavailable = "UIAutomationCore could not be created (" + error.GetType().Name + ": " + error.Message + ")";
                Log.Error("UI Automation unavailable", "error", error.ToString());
            }
        }

        // ── cached property values: absent (null) when the element does not support the property ──
        static object Cached(IUIAutomationElement element, int property)
        {
            try
            {
                var value = element.GetCachedPropertyValue(property);
                if (value == null || ReferenceEquals(value, notSupported)) return null;
                return value;
            }
            catch (COMException)
            {
                return null;
            }
        }

        public static string CStr(IUIAutomationElement element, int property)
        {
            return Cached(element, property) as string;
        }

        public static bool CBool(IUIAutomationElement element, int property, bool otherwise = false)
        {
            var value = Cached(element, property);
            return value is bool ? (bool)value : otherwise;
        }

        public static int? CInt(IUIAutomationElement element, int property)
        {
            var value = Cached(element, property);
            return value is int ? (int?)(int)value : null;
        }

        public static double? CDouble(IUIAutomationElement element, int property)
        {
            var value = Cached(element, property);
            return value is double ? (double?)(double)value : null;
        }

        public static IntPtr CHandle(IUIAutomationElement element)
        {
            var value = Cached(element, Prop.NativeWindowHandle);
            return value is int ? new IntPtr((int)value) : value is long ? new IntPtr((long)value) : IntPtr.Zero;
        }

        /// <summary>Screen pixels from the cached BoundingRectangle (left, top, width, height); null when empty.</summary>
        public static JsonObject CBounds(IUIAutomationElement element)
        {
            var rect = Cached(element, Prop.BoundingRectangle) as double[];
            if (rect == null || rect.Length < 4 || rect[2] <= 0 || rect[3] <= 0) return null;
            return Bounds((int)Math.Round(rect[0]), (int)Math.Round(rect[1]), (int)Math.Round(rect[2]), (int)Math.Round(rect[3]));
        }

        public static JsonObject Bounds(int x, int y, int width, int height)
        {
            var bounds = new JsonObject();
            bounds["x"] = x;
            bounds["y"] = y;
            bounds["width"] = width;
            bounds["height"] = height;
            return bounds;
        }

        public static string RefOf(int[] runtimeId)
        {
            if (runtimeId == null || runtimeId.Length == 0) return null;
            var parts = new string[runtimeId.Length];
            for (var i = 0; i < runtimeId.Length; i++) parts[i] = runtimeId[i].ToString(CultureInfo.InvariantCulture);
            return string.Join(".", parts);
        }

        public static string CRef(IUIAutomationElement element)
        {
            return RefOf(Cached(element, Prop.RuntimeId) as int[]);
        }

        public static T PatternOf<T>(IUIAutomationElement element, int pattern) where T : class
        {
            try
            {
                return element.GetCurrentPattern(pattern) as T;
            }
            catch (COMException)
            {
                return null;
            }
        }

        public static string NumberText(double value)
        {
            return value == Math.Floor(value) && Math.Abs(value) < 1e15
                ? ((long)value).ToString(CultureInfo.InvariantCulture)
                : value.ToString("G", CultureInfo.InvariantCulture);
        }

        /// <summary>A COM failure of UIA as the protocol names it.</summary>
        public static Fail Translate(COMException error, string doing)
        {
            var code = error.ErrorCode;
            if (code == Hresult.ElementNotAvailable || code == Hresult.RpcDisconnected || code == Hresult.ObjectNotConnected)
                return new Fail("STALE_REF", "The element is gone (" + doing + "): take a new snapshot");
            if (code == Hresult.RpcServerUnavailable || code == Hresult.RpcCallFailed)
                return new Fail("WINDOW_NOT_FOUND", "The app went away while " + doing);
            if (code == Hresult.ElementNotEnabled) return new Fail("ELEMENT_DISABLED", "The element is disabled (" + doing + ")");
            if (code == Hresult.NoClickablePoint) return new Fail("ELEMENT_OBSCURED", "The element has no point to click (" + doing + ")");
            if (code == Hresult.NotSupported || code == Hresult.InvalidOperation)
                return new Fail("UNSUPPORTED_ACTION", "The element refused (" + doing + "): " + error.Message);
            if (code == Hresult.Timeout)
                return new Fail("TIMEOUT", "The app does not answer UI Automation (busy or hung) while " + doing);
            if (code == Hresult.AccessDenied)
                return new Fail("ACCESS_DENIED", "Windows refused access while " + doing + " (an elevated app, or another user's)", "ELEVATED");
            return new Fail("INTERNAL", "UI Automation failed while " + doing + ": 0x" + code.ToString("X8") + " " + error.Message);
        }
    }
}
