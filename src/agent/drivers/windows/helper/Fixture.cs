// `uia-helper.exe --record-fixture <file.json> [--title <text>] [--window <id>] [--max-elements <n>]
// [--screenshot]`: what the helper answers for one real window (listWindows, snapshot, optionally a
// screenshot), written as one JSON file, so the TypeScript tests can map real UI Automation trees
// without Windows (agent-installer/WINDOWS-CHECKLIST.md says how to record them on a PC).
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace Deskhook.Uia
{
    public static class Fixture
    {
        public static int Record(string[] argv)
        {
            string file = null, title = null, windowId = null;
            long maxElements = 2000;
            var screenshot = false;
            for (var i = 0; i < argv.Length; i++)
            {
                var arg = argv[i];
                if (arg == "--title" && i + 1 < argv.Length) title = argv[++i];
                else if (arg == "--window" && i + 1 < argv.Length) windowId = argv[++i];
                else if (arg == "--max-elements" && i + 1 < argv.Length && long.TryParse(argv[++i], out maxElements)) { }
                else if (arg == "--screenshot") screenshot = true;
                else if (file == null && !arg.StartsWith("--", StringComparison.Ordinal)) file = arg;
                else return Usage("unknown argument " + arg);
            }
            if (file == null) return Usage("the output file is missing");
            try
            {
                Backend.Require();
                var windows = Windows.List();
                if (windowId == null)
                {
                    foreach (var window in windows)
                    {
                        var shown = (string)window["title"];
                        if (title == null || shown.IndexOf(title, StringComparison.CurrentCultureIgnoreCase) >= 0)
                        {
                            windowId = (string)window["id"];
                            break;
                        }
                    }
                }
                if (windowId == null) return Usage("no window titled *" + title + "*; the windows: " + Titles(windows));
                var args = new JsonObject();
                args["windowId"] = windowId;
                args["maxElements"] = maxElements;
                var fixture = new JsonObject();
                fixture["recordedAt"] = DateTime.UtcNow.ToString("o");
                fixture["helperVersion"] = Program.HelperVersion;
                fixture["protocol"] = Program.ProtocolVersion;
                fixture["os"] = Environment.OSVersion.VersionString;
                fixture["windows"] = windows;
                fixture["snapshot"] = Snapshot.Take(args);
                if (screenshot) fixture["screenshot"] = Screenshot.Take(args);
                File.WriteAllText(file, Json.Write(fixture) + "\n", new UTF8Encoding(false));
                var snapshot = (JsonObject)fixture["snapshot"];
                Console.Error.WriteLine("recorded \"" + ((JsonObject)snapshot["window"])["title"] + "\": " + snapshot["elementCount"] +
                                        " elements" + ((bool)snapshot["truncated"] ? " (cut at the budget)" : "") + " → " + file);
                return 0;
            }
            catch (Fail failure)
            {
                Console.Error.WriteLine(failure.Code + ": " + failure.Message);
                return 1;
            }
        }

        static string Titles(List<JsonObject> windows)
        {
            var titles = new List<string>();
            foreach (var window in windows) titles.Add("\"" + window["title"] + "\"");
            return titles.Count > 0 ? string.Join(", ", titles.ToArray()) : "none";
        }

        static int Usage(string problem)
        {
            Console.Error.WriteLine("--record-fixture: " + problem);
            Console.Error.WriteLine("usage: uia-helper.exe --record-fixture <file.json> [--title <text>] [--window <id>] [--max-elements <n>] [--screenshot]");
            return 2;
        }
    }
}
