// What Windows lets this helper reach: a locked session, the secure desktop (a UAC prompt,
// Ctrl+Alt+Del) or session 0 (a service) take input and screenshots away from every app; an
// elevated window refuses a helper that is not (UIPI); a disconnected Remote Desktop session draws
// nothing. Each is an ACCESS_DENIED that says which, and the `session` command names the state
// (docs/windows.md, "Locked and disconnected sessions").
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Deskhook.Uia
{
    public static class Desktop
    {
        /// <summary>Fails when input cannot reach the user's desktop now; names why.</summary>
        public static void RequireInteractive(string doing)
        {
            var blocked = Blocked();
            if (blocked != null) throw blocked(doing);
        }

        /// <summary>Why nothing on the desktop can be reached now, or null.</summary>
        public static Func<string, Fail> Blocked()
        {
            uint session;
            if (Native.ProcessIdToSessionId(Native.GetCurrentProcessId(), out session) && session == 0)
                return doing => new Fail("ACCESS_DENIED",
                    "The agent runs in session 0 (as a service), which has no desktop: cannot " + doing +
                    ". Start it in the user's session (at logon), not as a service", "SESSION_0");
            var info = SessionInfo();
            if (info.Disconnected)
                return doing => new Fail("ACCESS_DENIED",
                    "The Windows session is disconnected (a Remote Desktop window was closed without signing out): " +
                    "cannot " + doing + " until someone connects to it again", "SESSION_DISCONNECTED");
            if (info.Locked)
                return doing => new Fail("ACCESS_DENIED",
                    "The Windows session is locked: cannot " + doing + " until someone unlocks it " +
                    "(keep the PC unlocked, e.g. no screen lock for the agent's user)", "SESSION_LOCKED");
            var input = InputDesktopName();
            if (input != null && !string.Equals(input, "Default", StringComparison.OrdinalIgnoreCase))
                return doing => new Fail("ACCESS_DENIED",
                    "The secure desktop is showing (" + input + ": a UAC prompt or the Ctrl+Alt+Del screen): cannot " +
                    doing + " until it is answered", "SECURE_DESKTOP");
            return null;
        }

        /// <summary>The desktop that takes input ("Default" normally); "Winlogon" when it cannot be opened.</summary>
        static string InputDesktopName()
        {
            var desktop = Native.OpenInputDesktop(0, false, Native.DESKTOP_READOBJECTS);
            if (desktop == IntPtr.Zero)
                // Only the secure desktop (and a locked one) refuses a process of the logged-on user.
                return Marshal.GetLastWin32Error() == 5 ? "Winlogon" : null;
            try
            {
                var name = new StringBuilder(256);
                int needed;
                return Native.GetUserObjectInformation(desktop, Native.UOI_NAME, name, name.Capacity * 2, out needed)
                    ? name.ToString()
                    : null;
            }
            finally
            {
                Native.CloseDesktop(desktop);
            }
        }

        /// <summary>The `session` command: the state Blocked() finds, as the protocol names it.</summary>
        public static JsonObject State(JsonObject args)
        {
            var result = new JsonObject();
            if (!Backend.IsWindows)
                throw new Fail("DISCONNECTED", "The session's state is known on Windows only (this is " + Environment.OSVersion.Platform + ")");
            var blocked = Blocked();
            if (blocked == null)
            {
                result["state"] = "active";
                return result;
            }
            var failure = blocked("act");
            result["state"] = StateOf(failure.Reason);
            result["message"] = failure.Message;
            return result;
        }

        /// <summary>An ACCESS_DENIED reason as the `session` command's state (src/protocol/helper.ts).</summary>
        public static string StateOf(string reason)
        {
            switch (reason)
            {
                case "SESSION_LOCKED": return "locked";
                case "SESSION_DISCONNECTED": return "disconnected";
                case "SECURE_DESKTOP": return "secure_desktop";
                case "SESSION_0": return "no_desktop";
                default: return "active";
            }
        }

        struct Session
        {
            public bool Locked;
            public bool Disconnected;
        }

        /// <summary>
        /// WTSINFOEX_LEVEL1_W of the current session: SessionState WTSDisconnected (4) is a closed
        /// Remote Desktop window; SessionFlags WTS_SESSIONSTATE_LOCK (0) a locked one (Windows 10/11).
        /// </summary>
        static Session SessionInfo()
        {
            var session = new Session();
            IntPtr buffer;
            int bytes;
            if (!Native.WTSQuerySessionInformation(IntPtr.Zero, Native.WTS_CURRENT_SESSION, Native.WTSSessionInfoEx, out buffer, out bytes))
                return session;
            try
            {
                // WTSINFOEXW: Level (DWORD), then WTSINFOEX_LEVEL1_W: SessionId, SessionState, SessionFlags.
                if (bytes < 16) return session;
                var level = Marshal.ReadInt32(buffer, 0);
                if (level != 1) return session;
                var offset = IntPtr.Size == 8 ? 8 : 4;
                session.Disconnected = Marshal.ReadInt32(buffer, offset + 4) == WTSDisconnected;
                session.Locked = Marshal.ReadInt32(buffer, offset + 8) == 0;
                return session;
            }
            finally
            {
                Native.WTSFreeMemory(buffer);
            }
        }

        /// <summary>WTS_CONNECTSTATE_CLASS.WTSDisconnected.</summary>
        const int WTSDisconnected = 4;

        static int? integrityOfSelf;

        /// <summary>The mandatory integrity level of a process (0x2000 medium, 0x3000 high = elevated); null if unknown.</summary>
        public static int? IntegrityOf(uint pid)
        {
            var process = Native.OpenProcess(Native.PROCESS_QUERY_LIMITED_INFORMATION, false, pid);
            if (process == IntPtr.Zero) return null;
            try
            {
                IntPtr token;
                if (!Native.OpenProcessToken(process, Native.TOKEN_QUERY, out token)) return null;
                try
                {
                    int length;
                    Native.GetTokenInformation(token, Native.TokenIntegrityLevel, IntPtr.Zero, 0, out length);
                    if (length <= 0) return null;
                    var info = Marshal.AllocHGlobal(length);
                    try
                    {
                        if (!Native.GetTokenInformation(token, Native.TokenIntegrityLevel, info, length, out length)) return null;
                        var sid = Marshal.ReadIntPtr(info);
                        var count = Marshal.ReadByte(Native.GetSidSubAuthorityCount(sid));
                        return Marshal.ReadInt32(Native.GetSidSubAuthority(sid, (uint)(count - 1)));
                    }
                    finally
                    {
                        Marshal.FreeHGlobal(info);
                    }
                }
                finally
                {
                    Native.CloseHandle(token);
                }
            }
            finally
            {
                Native.CloseHandle(process);
            }
        }

        /// <summary>
        /// Fails with ACCESS_DENIED when the window's process runs at a higher integrity level than
        /// this helper (an app started "as administrator"): UIPI hides its elements and drops input.
        /// </summary>
        public static void RequireReachable(WindowRef window, string doing)
        {
            if (integrityOfSelf == null) integrityOfSelf = IntegrityOf(Native.GetCurrentProcessId()) ?? 0x2000;
            var theirs = IntegrityOf(window.Pid);
            // A process whose token cannot be read from here is elevated or another user's.
            var higher = theirs == null ? integrityOfSelf < 0x3000 : theirs > integrityOfSelf;
            if (!higher) return;
            throw new Fail("ACCESS_DENIED",
                "The window \"" + window.Title + "\" (" + window.App + ", pid " + window.Pid + ") runs elevated (as administrator)" +
                " and the agent does not: Windows does not let it " + doing + ". Start the app without elevation, or run" +
                " the agent elevated too", "ELEVATED");
        }
    }
}
