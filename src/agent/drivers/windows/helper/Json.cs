// A small JSON reader and writer for the helper's protocol lines: .NET Framework 4.8 has no
// System.Text.Json, and DataContractJsonSerializer wants a class per shape. Objects read as
// JsonObject (keys in their order), arrays as List<object>, numbers as long (integers) or double,
// strings, booleans and null.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Deskhook.Uia
{
    /// <summary>A JSON object that keeps its keys in the order they were set.</summary>
    public sealed class JsonObject : IEnumerable<KeyValuePair<string, object>>
    {
        readonly List<string> keys = new List<string>();
        readonly Dictionary<string, object> values = new Dictionary<string, object>();

        public object this[string key]
        {
            get { object value; return values.TryGetValue(key, out value) ? value : null; }
            set { if (!values.ContainsKey(key)) keys.Add(key); values[key] = value; }
        }

        public bool Has(string key) { return values.ContainsKey(key); }

        public void Remove(string key)
        {
            if (values.Remove(key)) keys.Remove(key);
        }

        /// <summary>Sets the key only when the value says something (not null, not an empty string).</summary>
        public JsonObject Maybe(string key, object value)
        {
            if (value != null && !(value is string && ((string)value).Length == 0)) this[key] = value;
            return this;
        }

        public IEnumerator<KeyValuePair<string, object>> GetEnumerator()
        {
            foreach (var key in keys) yield return new KeyValuePair<string, object>(key, values[key]);
        }

        IEnumerator IEnumerable.GetEnumerator() { return GetEnumerator(); }
    }

    public sealed class JsonException : Exception
    {
        public JsonException(string message) : base(message) { }
    }

    public static class Json
    {
        const int MaxDepth = 64;

        public static object Parse(string text)
        {
            var reader = new Reader(text);
            reader.SkipSpace();
            var value = reader.Value(0);
            reader.SkipSpace();
            if (!reader.AtEnd) throw new JsonException("unexpected text after the value");
            return value;
        }

        public static string Write(object value)
        {
            var builder = new StringBuilder();
            WriteValue(builder, value, 0);
            return builder.ToString();
        }

        static void WriteValue(StringBuilder b, object value, int depth)
        {
            if (depth > MaxDepth * 4) throw new JsonException("value nested too deeply");
            if (value == null) { b.Append("null"); return; }
            var s = value as string;
            if (s != null) { WriteString(b, s); return; }
            if (value is bool) { b.Append((bool)value ? "true" : "false"); return; }
            if (value is int || value is long || value is short || value is uint || value is ushort || value is byte)
            {
                b.Append(Convert.ToInt64(value, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture));
                return;
            }
            if (value is double || value is float || value is decimal)
            {
                var d = Convert.ToDouble(value, CultureInfo.InvariantCulture);
                if (double.IsNaN(d) || double.IsInfinity(d)) b.Append("null");
                else if (d == Math.Floor(d) && Math.Abs(d) < 1e15) b.Append(((long)d).ToString(CultureInfo.InvariantCulture));
                else b.Append(d.ToString("R", CultureInfo.InvariantCulture));
                return;
            }
            var obj = value as JsonObject;
            if (obj != null)
            {
                b.Append('{');
                var first = true;
                foreach (var pair in obj)
                {
                    if (!first) b.Append(',');
                    first = false;
                    WriteString(b, pair.Key);
                    b.Append(':');
                    WriteValue(b, pair.Value, depth + 1);
                }
                b.Append('}');
                return;
            }
            var list = value as IEnumerable;
            if (list != null)
            {
                b.Append('[');
                var first = true;
                foreach (var item in list)
                {
                    if (!first) b.Append(',');
                    first = false;
                    WriteValue(b, item, depth + 1);
                }
                b.Append(']');
                return;
            }
            WriteString(b, value.ToString());
        }

        static void WriteString(StringBuilder b, string s)
        {
            b.Append('"');
            for (var i = 0; i < s.Length; i++)
            {
                var c = s[i];
                switch (c)
                {
                    case '"': b.Append("\\\""); break;
                    case '\\': b.Append("\\\\"); break;
                    case '\n': b.Append("\\n"); break;
                    case '\r': b.Append("\\r"); break;
                    case '\t': b.Append("\\t"); break;
                    default:
                        if (c < 0x20 || c == '\u2028' || c == '\u2029') Escape(b, c);
                        else if (char.IsHighSurrogate(c) && i + 1 < s.Length && char.IsLowSurrogate(s[i + 1]))
                        {
                            b.Append(c).Append(s[i + 1]);
                            i++;
                        }
                        // A lone surrogate cannot be written as UTF-8: escaped, it stays valid JSON.
                        else if (char.IsSurrogate(c)) Escape(b, c);
                        else b.Append(c);
                        break;
                }
            }
            b.Append('"');
        }

        static void Escape(StringBuilder b, char c)
        {
            b.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
        }

        sealed class Reader
        {
            readonly string text;
            int at;

            public Reader(string text) { this.text = text; }

            public bool AtEnd { get { return at >= text.Length; } }

            public void SkipSpace()
            {
                while (at < text.Length && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n')) at++;
            }

            JsonException Error(string what) { return new JsonException(what + " at character " + at); }

            public object Value(int depth)
            {
                if (depth > MaxDepth) throw Error("nested too deeply");
                if (AtEnd) throw Error("unexpected end");
                var c = text[at];
                if (c == '{') return Object(depth);
                if (c == '[') return Array(depth);
                if (c == '"') return String();
                if (c == '-' || (c >= '0' && c <= '9')) return Number();
                if (Word("true")) return true;
                if (Word("false")) return false;
                if (Word("null")) return null;
                throw Error("unexpected character");
            }

            bool Word(string word)
            {
                if (string.CompareOrdinal(text, at, word, 0, word.Length) != 0) return false;
                at += word.Length;
                return true;
            }

            JsonObject Object(int depth)
            {
                var obj = new JsonObject();
                at++;
                SkipSpace();
                if (!AtEnd && text[at] == '}') { at++; return obj; }
                for (;;)
                {
                    SkipSpace();
                    if (AtEnd || text[at] != '"') throw Error("expected a key");
                    var key = String();
                    SkipSpace();
                    if (AtEnd || text[at] != ':') throw Error("expected ':'");
                    at++;
                    SkipSpace();
                    obj[key] = Value(depth + 1);
                    SkipSpace();
                    if (AtEnd) throw Error("unexpected end");
                    if (text[at] == ',') { at++; continue; }
                    if (text[at] == '}') { at++; return obj; }
                    throw Error("expected ',' or '}'");
                }
            }

            List<object> Array(int depth)
            {
                var list = new List<object>();
                at++;
                SkipSpace();
                if (!AtEnd && text[at] == ']') { at++; return list; }
                for (;;)
                {
                    SkipSpace();
                    list.Add(Value(depth + 1));
                    SkipSpace();
                    if (AtEnd) throw Error("unexpected end");
                    if (text[at] == ',') { at++; continue; }
                    if (text[at] == ']') { at++; return list; }
                    throw Error("expected ',' or ']'");
                }
            }

            string String()
            {
                at++;
                var b = new StringBuilder();
                for (;;)
                {
                    if (AtEnd) throw Error("unterminated string");
                    var c = text[at++];
                    if (c == '"') return b.ToString();
                    if (c < 0x20) throw Error("control character in a string");
                    if (c != '\\') { b.Append(c); continue; }
                    if (AtEnd) throw Error("unterminated escape");
                    var e = text[at++];
                    switch (e)
                    {
                        case '"': b.Append('"'); break;
                        case '\\': b.Append('\\'); break;
                        case '/': b.Append('/'); break;
                        case 'b': b.Append('\b'); break;
                        case 'f': b.Append('\f'); break;
                        case 'n': b.Append('\n'); break;
                        case 'r': b.Append('\r'); break;
                        case 't': b.Append('\t'); break;
                        case 'u':
                            if (at + 4 > text.Length) throw Error("short \\u escape");
                            int code;
                            if (!int.TryParse(text.Substring(at, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out code))
                                throw Error("bad \\u escape");
                            b.Append((char)code);
                            at += 4;
                            break;
                        default: throw Error("bad escape");
                    }
                }
            }

            object Number()
            {
                var start = at;
                if (text[at] == '-') at++;
                while (at < text.Length && "0123456789+-.eE".IndexOf(text[at]) >= 0) at++;
                var token = text.Substring(start, at - start);
                long whole;
                if (token.IndexOfAny(new[] { '.', 'e', 'E' }) < 0 &&
                    long.TryParse(token, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out whole))
                    return whole;
                double d;
                if (double.TryParse(token, NumberStyles.Float, CultureInfo.InvariantCulture, out d)) return d;
                throw Error("bad number");
            }
        }
    }
}
