// The protocol channel (stdout: one JSON line per answer or event, nothing else), the log
// (stderr: JSON lines with level and msg, which the host writes to the agent's log), typed
// failures and the checks of a request's arguments.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace Deskhook.Uia
{
    /// <summary>A failure the host is told as it is: a protocol error code and a sentence.</summary>
    public sealed class Fail : Exception
    {
        public readonly string Code;
        /// <summary>
        /// Why the OS refused, for ACCESS_DENIED (ELEVATED, SECURE_DESKTOP, SESSION_LOCKED, SESSION_0):
        /// an extra field of the error object, machine-readable; the message says it in words.
        /// </summary>
        public readonly string Reason;

        public Fail(string code, string message, string reason = null) : base(message)
        {
            Code = code;
            Reason = reason;
        }
    }

    public static class Channel
    {
        static readonly object WriteLock = new object();
        static Stream output;
        static TextReader input;
        static readonly UTF8Encoding Utf8 = new UTF8Encoding(false);

        /// <summary>Claims stdout for the protocol: anything else written to Console goes to stderr.</summary>
        public static void Open()
        {
            output = Console.OpenStandardOutput();
            input = new StreamReader(Console.OpenStandardInput(), Utf8, false, 1 << 16);
            var err = new StreamWriter(Console.OpenStandardError(), Utf8) { AutoFlush = true, NewLine = "\n" };
            Console.SetError(err);
            Console.SetOut(err);
        }

        public static string ReadLine() { return input.ReadLine(); }

        public static void Send(JsonObject line)
        {
            var bytes = Utf8.GetBytes(Json.Write(line) + "\n");
            lock (WriteLock)
            {
                output.Write(bytes, 0, bytes.Length);
                output.Flush();
            }
        }

        public static JsonObject Error(string code, string message, string reason = null)
        {
            var error = new JsonObject();
            error["code"] = code;
            error["message"] = message;
            if (reason != null) error["reason"] = reason;
            return error;
        }
    }

    public static class Log
    {
        static readonly object WriteLock = new object();

        public static void Debug(string msg, params object[] fields) { Write("debug", msg, fields); }
        public static void Info(string msg, params object[] fields) { Write("info", msg, fields); }
        public static void Warn(string msg, params object[] fields) { Write("warn", msg, fields); }
        public static void Error(string msg, params object[] fields) { Write("error", msg, fields); }

        /// <summary>`fields` are name, value pairs.</summary>
        static void Write(string level, string msg, object[] fields)
        {
            try
            {
                var line = new JsonObject();
                line["level"] = level;
                line["msg"] = msg;
                for (var i = 0; i + 1 < fields.Length; i += 2) line[fields[i].ToString()] = fields[i + 1];
                var text = Json.Write(line);
                lock (WriteLock) Console.Error.WriteLine(text);
            }
            catch (Exception)
            {
                // The log must never end the helper.
            }
        }
    }

    /// <summary>Reads a request's arguments; a missing or mistyped one is a BAD_REQUEST naming it.</summary>
    public static class Args
    {
        static Fail Missing(string name) { return new Fail("BAD_REQUEST", "missing argument \"" + name + "\""); }

        static Fail Mistyped(string name, string what)
        {
            return new Fail("BAD_REQUEST", "argument \"" + name + "\" must be " + what);
        }

        public static string Str(JsonObject args, string name)
        {
            if (!args.Has(name) || args[name] == null) throw Missing(name);
            var s = args[name] as string;
            if (s == null) throw Mistyped(name, "a string");
            return s;
        }

        public static string OptStr(JsonObject args, string name)
        {
            if (!args.Has(name) || args[name] == null) return null;
            return Str(args, name);
        }

        public static long Int(JsonObject args, string name, long min = long.MinValue)
        {
            if (!args.Has(name) || args[name] == null) throw Missing(name);
            var value = args[name];
            long n;
            if (value is long) n = (long)value;
            else if (value is double && Math.Floor((double)value) == (double)value && Math.Abs((double)value) < 9e15)
                n = (long)(double)value;
            else throw Mistyped(name, "an integer");
            if (n < min) throw Mistyped(name, "at least " + min);
            return n;
        }

        public static long? OptInt(JsonObject args, string name, long min = long.MinValue)
        {
            if (!args.Has(name) || args[name] == null) return null;
            return Int(args, name, min);
        }

        public static double Num(JsonObject args, string name)
        {
            if (!args.Has(name) || args[name] == null) throw Missing(name);
            var value = args[name];
            if (value is long) return (long)value;
            if (value is double) return (double)value;
            throw Mistyped(name, "a number");
        }

        public static bool Bool(JsonObject args, string name)
        {
            if (!args.Has(name) || args[name] == null) throw Missing(name);
            if (!(args[name] is bool)) throw Mistyped(name, "true or false");
            return (bool)args[name];
        }

        public static JsonObject Obj(JsonObject args, string name)
        {
            if (!args.Has(name) || args[name] == null) throw Missing(name);
            var obj = args[name] as JsonObject;
            if (obj == null) throw Mistyped(name, "an object");
            return obj;
        }

        public static List<string> OptStrList(JsonObject args, string name)
        {
            if (!args.Has(name) || args[name] == null) return null;
            return StrList(args, name);
        }

        public static List<string> StrList(JsonObject args, string name)
        {
            if (!args.Has(name) || args[name] == null) throw Missing(name);
            var list = args[name] as List<object>;
            if (list == null) throw Mistyped(name, "an array of strings");
            var out_ = new List<string>();
            foreach (var item in list)
            {
                var s = item as string;
                if (s == null) throw Mistyped(name, "an array of strings");
                out_.Add(s);
            }
            return out_;
        }

        public static List<long> OptIntList(JsonObject args, string name)
        {
            if (!args.Has(name) || args[name] == null) return null;
            var list = args[name] as List<object>;
            if (list == null) throw Mistyped(name, "an array of integers");
            var out_ = new List<long>();
            foreach (var item in list)
            {
                if (item is long) out_.Add((long)item);
                else throw Mistyped(name, "an array of integers");
            }
            return out_;
        }
    }
}
