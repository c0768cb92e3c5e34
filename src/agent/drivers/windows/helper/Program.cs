// deskhook's Windows UI Automation helper: one long-lived process that the agent's native driver
// host (src/agent/drivers/native/helper-host.ts) talks to with JSON lines on stdin/stdout, the same
// protocol as the Linux AT-SPI helper (src/protocol/helper.ts). C# for .NET Framework 4.8, which
// every Windows 10/11 has, with UIA's COM interfaces declared in source (Uia.cs): nothing to
// install, and no PowerShell Add-Type, which AppLocker/WDAC's constrained language mode blocks.
//
// Each request runs on its own MTA thread (UIA's client threading model), so a wait does not hold
// up a snapshot; each has a deadline inside the host's own, past which it is answered TIMEOUT (a
// hung app) and its late result dropped. Arguments are checked before UI Automation is needed: on
// a machine without it (mono on Linux, where the tests run it) every such command fails typed.
//
// Command lines: no argument (the protocol on stdin/stdout), --version, --check-vtables (each COM
// method's vtable slot, for the tests), --record-fixture (Fixture.cs).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
using System.Threading;

[assembly: AssemblyTitle("deskhook UI Automation helper")]
[assembly: AssemblyVersion("1.0.0.0")]

namespace Deskhook.Uia
{
    public static class Program
    {
        public const int ProtocolVersion = 3;
        public const string HelperVersion = "1.0.0";
        /// <summary>Default deadline of a command (ms): inside the host's 15 s, so the host gets an answer, not a kill.</summary>
        static int deadlineMs = 12000;

        sealed class Command
        {
            public Func<JsonObject, JsonObject> Run;
            /// <summary>The deadline for these arguments; the default one when null.</summary>
            public Func<JsonObject, int> Deadline;
        }

        static readonly Dictionary<string, Command> Commands = new Dictionary<string, Command>
        {
            { "session", new Command { Run = Desktop.State } },
            { "listWindows", new Command { Run = ListWindows } },
            { "snapshot", new Command { Run = Snapshot.Take } },
            { "act", new Command { Run = Actions.Act } },
            { "waitForChange", new Command { Run = Waits.ForChange, Deadline = a => Wait(a, "timeoutMs", 0) } },
            { "screenshot", new Command { Run = Screenshot.Take } },
            { "launch", new Command { Run = Apps.Launch, Deadline = a => Wait(a, "timeoutMs", 30000) } },
            { "close", new Command { Run = Apps.Close, Deadline = a => Wait(a, "timeoutMs", 5000) + 2000 } },
            { "focus", new Command { Run = Waits.Focus } },
            { "watchInput", new Command { Run = Record.WatchInput } },
            { "unwatchInput", new Command { Run = Record.UnwatchInput } },
            { "input", new Command { Run = Record.RemoteInput } },
        };

        /// <summary>A command that waits `timeoutMs` answers at its end; the deadline leaves it room past that.</summary>
        static int Wait(JsonObject args, string name, int otherwise)
        {
            var value = args[name];
            var wait = value is long ? (long)value : otherwise;
            return (int)Math.Min(int.MaxValue - 10000, Math.Max(0, wait)) + 3000;
        }

        [MTAThread]
        public static int Main(string[] argv)
        {
            for (var i = 0; i < argv.Length; i++)
            {
                switch (argv[i])
                {
                    case "--version":
                        Console.WriteLine(HelperVersion + " (protocol " + ProtocolVersion + ")");
                        return 0;
                    case "--check-vtables":
                        Console.WriteLine(Json.Write(VtableSlots()));
                        return 0;
                    case "--record-fixture":
                        return Fixture.Record(argv.Skip(i + 1).ToArray());
                    case "--deadline-ms":
                        int parsed;
                        if (i + 1 < argv.Length && int.TryParse(argv[++i], out parsed) && parsed > 0)
                        {
                            deadlineMs = parsed;
                            break;
                        }
                        Console.Error.WriteLine("--deadline-ms needs a number of milliseconds");
                        return 2;
                    default:
                        Console.Error.WriteLine("Unknown argument " + argv[i] + "; use --version, --check-vtables, --record-fixture or --deadline-ms");
                        return 2;
                }
            }
            Channel.Open();
            Log.Info("helper started", "pid", Process.GetCurrentProcess().Id, "runtime", Runtime());
            string line;
            while ((line = Channel.ReadLine()) != null)
            {
                line = line.Trim();
                if (line.Length > 0) Handle(line);
            }
            // The host went away (or closed stdin to stop us): so do we, with watches ended, once the
            // requests already read are answered (briefly: the host kills a helper that lingers).
            Log.Debug("stdin closed: exiting");
            var draining = Stopwatch.StartNew();
            while (Reply.InFlight > 0 && draining.ElapsedMilliseconds < 1500) Thread.Sleep(10);
            try { Record.StopAll(); }
            catch (Exception error) { Log.Debug("watches not ended", "error", error.Message); }
            return 0;
        }

        static void Handle(string line)
        {
            JsonObject request;
            try
            {
                request = Json.Parse(line) as JsonObject;
            }
            catch (JsonException)
            {
                Log.Warn("malformed request line", "line", line.Length > 200 ? line.Substring(0, 200) : line);
                Reply.Failure(null, new Fail("BAD_REQUEST", "not a JSON line"));
                return;
            }
            var id = request != null ? request["id"] as string : null;
            var cmd = request != null ? request["cmd"] as string : null;
            if (id == null || cmd == null)
            {
                Reply.Failure(id, new Fail("BAD_REQUEST", "a request is {\"id\": string, \"cmd\": string, \"args\": object}"));
                return;
            }
            var args = request.Has("args") && request["args"] != null ? request["args"] as JsonObject : new JsonObject();
            if (args == null)
            {
                Reply.Failure(id, new Fail("BAD_REQUEST", "args must be an object"));
                return;
            }
            if (cmd == "hello")
            {
                new Reply(id, cmd).Run(() => Hello(args));
                return;
            }
            Command command;
            if (!Commands.TryGetValue(cmd, out command))
            {
                Reply.Failure(id, new Fail("UNKNOWN_COMMAND", "Unknown command \"" + cmd + "\""));
                return;
            }
            var reply = new Reply(id, cmd);
            var deadline = command.Deadline != null ? command.Deadline(args) : deadlineMs;
            reply.StartDeadline(deadline);
            var thread = new Thread(() => reply.Run(() => command.Run(args))) { IsBackground = true, Name = cmd + " " + id };
            thread.SetApartmentState(ApartmentState.MTA);
            thread.Start();
        }

        static JsonObject Hello(JsonObject args)
        {
            var wanted = Args.Int(args, "protocol");
            if (wanted != ProtocolVersion)
                throw new Fail("PROTOCOL_MISMATCH", "the helper speaks protocol " + ProtocolVersion + ", the agent " + wanted);
            var result = new JsonObject();
            result["protocol"] = ProtocolVersion;
            result["backend"] = "uia";
            result["platform"] = Backend.IsWindows ? "windows" : Environment.OSVersion.Platform.ToString().ToLowerInvariant();
            result["helperVersion"] = HelperVersion;
            result["pid"] = Process.GetCurrentProcess().Id;
            result["runtime"] = Runtime() + ", UI Automation " + Backend.Status();
            return result;
        }

        static string Runtime()
        {
            var mono = Type.GetType("Mono.Runtime") != null;
            return (mono ? "mono" : ".NET Framework") + " (CLR " + Environment.Version + "), " + Environment.OSVersion.VersionString +
                   (Environment.Is64BitProcess ? ", 64-bit" : ", 32-bit");
        }

        static JsonObject ListWindows(JsonObject args)
        {
            Backend.Require();
            var blocked = Desktop.Blocked();
            if (blocked != null) Log.Warn("listing windows while the desktop cannot be reached", "why", blocked("act").Reason);
            var result = new JsonObject();
            result["windows"] = Windows.List();
            return result;
        }

        /// <summary>Each [ComImport] interface's methods with their vtable slot (IUnknown's three come first).</summary>
        static JsonObject VtableSlots()
        {
            var all = new JsonObject();
            var interfaces = typeof(Program).Assembly.GetTypes()
                .Where(t => t.IsInterface && t.IsImport)
                .OrderBy(t => t.Name, StringComparer.Ordinal);
            foreach (var type in interfaces)
            {
                var slots = new JsonObject();
                var methods = type.GetMethods().OrderBy(m => m.MetadataToken).ToList();
                for (var i = 0; i < methods.Count; i++) slots[methods[i].Name] = 3 + i;
                all[type.Name] = slots;
            }
            return all;
        }
    }

    /// <summary>One request's answer: sent once, by whichever comes first, its result or its deadline.</summary>
    public sealed class Reply
    {
        readonly string id;
        readonly string cmd;
        static int inFlight;
        int answered;
        Timer timer;

        public Reply(string id, string cmd)
        {
            this.id = id;
            this.cmd = cmd;
            Interlocked.Increment(ref inFlight);
        }

        /// <summary>Requests read and not answered yet.</summary>
        public static int InFlight { get { return Volatile.Read(ref inFlight); } }

        public static void Failure(string id, Fail failure)
        {
            var line = new JsonObject();
            line["id"] = id;
            line["ok"] = false;
            line["error"] = Channel.Error(failure.Code, failure.Message, failure.Reason);
            Channel.Send(line);
        }

        public void StartDeadline(int ms)
        {
            timer = new Timer(_ => Answer(null, new Fail("TIMEOUT",
                "The helper gave up on " + cmd + " after " + ms + " ms: the app does not answer UI Automation (busy or hung)")), null, ms, Timeout.Infinite);
        }

        public void Run(Func<JsonObject> produce)
        {
            try
            {
                Answer(produce(), null);
            }
            catch (Fail failure)
            {
                Answer(null, failure);
            }
            catch (System.Runtime.InteropServices.COMException error)
            {
                Answer(null, Backend.Translate(error, cmd));
            }
            catch (Exception error)
            {
                Log.Error("command failed", "cmd", cmd, "trace", error.ToString());
                Answer(null, new Fail("INTERNAL", error.GetType().Name + ": " + error.Message));
            }
        }

        void Answer(JsonObject result, Fail failure)
        {
            if (Interlocked.Exchange(ref answered, 1) != 0)
            {
                if (failure == null) Log.Debug("a late answer was dropped", "cmd", cmd, "id", id);
                return;
            }
            if (timer != null) timer.Dispose();
            // Counted as answered only once its line is written: the exit on EOF waits for this count,
            // and a process that ends between the two loses the answer.
            try
            {
                if (failure != null)
                {
                    if (failure.Code == "TIMEOUT") Log.Warn("command past its deadline", "cmd", cmd, "id", id);
                    Failure(id, failure);
                    return;
                }
                var line = new JsonObject();
                line["id"] = id;
                line["ok"] = true;
                line["result"] = result;
                Channel.Send(line);
            }
            finally
            {
                Interlocked.Decrement(ref inFlight);
            }
        }
    }
}
