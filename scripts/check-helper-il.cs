// The IL check's reader (scripts/check-helper-il.ts compiles and runs it under mono): every
// assembly, type and member an assembly's IL references outside itself, each resolved against the
// named assemblies of a folder of reference assemblies and nothing else (no GAC, no mono fallback;
// the folder's Mono-only assemblies such as Mono.Posix are not named, so they count as missing).
// Prints one JSON object: { "assemblies": [...], "references": [{ "kind", "member", "assembly",
// "found", "why"? }] }. Exit code 0 whether or not members are missing (the TypeScript side
// judges); 2 on a usage error.
//   mono check-helper-il.exe <assembly.exe|dll> <reference folder> <name,name,…>
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Mono.Cecil;

namespace Deskhook.IlCheck
{
    /// <summary>Finds assemblies in one folder (and its Facades) only: what is not there is not in the framework.</summary>
    sealed class FolderResolver : IAssemblyResolver
    {
        readonly string folder;
        readonly HashSet<string> names;
        readonly Dictionary<string, AssemblyDefinition> loaded = new Dictionary<string, AssemblyDefinition>();

        public FolderResolver(string folder, IEnumerable<string> names)
        {
            this.folder = folder;
            this.names = new HashSet<string>(names, StringComparer.OrdinalIgnoreCase);
        }

        public string PathOf(string name)
        {
            if (!names.Contains(name)) return null;
            foreach (var candidate in new[] { Path.Combine(folder, name + ".dll"), Path.Combine(folder, "Facades", name + ".dll") })
                if (File.Exists(candidate)) return candidate;
            return null;
        }

        public AssemblyDefinition Resolve(AssemblyNameReference name)
        {
            return Resolve(name, new ReaderParameters { AssemblyResolver = this });
        }

        public AssemblyDefinition Resolve(AssemblyNameReference name, ReaderParameters parameters)
        {
            AssemblyDefinition assembly;
            if (loaded.TryGetValue(name.Name, out assembly)) return assembly;
            var path = PathOf(name.Name);
            if (path == null) throw new AssemblyResolutionException(name);
            assembly = AssemblyDefinition.ReadAssembly(path, new ReaderParameters { AssemblyResolver = this });
            loaded[name.Name] = assembly;
            return assembly;
        }

        public void Dispose()
        {
            foreach (var assembly in loaded.Values) assembly.Dispose();
            loaded.Clear();
        }
    }

    static class Program
    {
        static int Main(string[] argv)
        {
            if (argv.Length != 3 || !File.Exists(argv[0]) || !Directory.Exists(argv[1]))
            {
                Console.Error.WriteLine("usage: check-helper-il.exe <assembly> <reference folder> <name,name,…>");
                return 2;
            }
            var resolver = new FolderResolver(argv[1], argv[2].Split(new[] { ',' }, StringSplitOptions.RemoveEmptyEntries));
            var module = ModuleDefinition.ReadModule(argv[0], new ReaderParameters { AssemblyResolver = resolver });
            var output = new StringBuilder("{\"assemblies\":[");
            var first = true;
            foreach (var reference in module.AssemblyReferences)
            {
                var path = resolver.PathOf(reference.Name);
                string why = null;
                if (path == null) why = "not an assembly of the reference set";
                else
                {
                    var version = AssemblyDefinition.ReadAssembly(path).Name.Version;
                    if (reference.Version > version) why = "referenced as " + reference.Version + ", the reference set has " + version;
                }
                output.Append(first ? "" : ",").Append(Entry("assembly", reference.FullName, reference.Name, why));
                first = false;
            }
            output.Append("],\"references\":[");
            first = true;
            foreach (var type in module.GetTypeReferences())
            {
                output.Append(first ? "" : ",").Append(Entry("type", type.FullName, Scope(type), Check(type)));
                first = false;
            }
            foreach (var member in module.GetMemberReferences())
            {
                // A generic type of this assembly's own instantiated (its members are not external);
                // a multi-dimensional array's Get/Set/Address/.ctor, which the runtime provides.
                if (Element(member.DeclaringType) is TypeDefinition) continue;
                if (member.DeclaringType is ArrayType) continue;
                var kind = member is MethodReference
                    ? (((MethodReference)member).Name == ".ctor" || ((MethodReference)member).Name == ".cctor" ? "constructor"
                        : ((MethodReference)member).Name.StartsWith("get_", StringComparison.Ordinal) ||
                          ((MethodReference)member).Name.StartsWith("set_", StringComparison.Ordinal) ||
                          ((MethodReference)member).Name.StartsWith("add_", StringComparison.Ordinal) ||
                          ((MethodReference)member).Name.StartsWith("remove_", StringComparison.Ordinal) ? "accessor" : "method")
                    : "field";
                output.Append(first ? "" : ",").Append(Entry(kind, member.FullName, Scope(member.DeclaringType), Check(member)));
                first = false;
            }
            output.Append("]}");
            Console.WriteLine(output.ToString());
            resolver.Dispose();
            return 0;
        }

        static TypeReference Element(TypeReference type)
        {
            while (type is TypeSpecification) type = ((TypeSpecification)type).ElementType;
            return type;
        }

        static string Scope(TypeReference type)
        {
            type = Element(type);
            while (type.DeclaringType != null) type = type.DeclaringType;
            var scope = type.Scope;
            var assembly = scope as AssemblyNameReference;
            return assembly != null ? assembly.Name : scope != null ? scope.Name : "?";
        }

        /// <summary>Null when the reference resolves to a public (or protected) definition, else why not.</summary>
        static string Check(TypeReference type)
        {
            try
            {
                var definition = type.Resolve();
                if (definition == null) return "no such type in the reference set";
                for (var t = definition; t != null; t = t.DeclaringType)
                    if (!(t.IsPublic || t.IsNestedPublic || t.IsNestedFamily || t.IsNestedFamilyOrAssembly)) return "the type is not public";
                return null;
            }
            catch (AssemblyResolutionException error)
            {
                return "its assembly " + error.AssemblyReference.Name + " is not in the reference set";
            }
        }

        static string Check(MemberReference member)
        {
            var declaring = Check(member.DeclaringType);
            if (declaring != null) return "its type: " + declaring;
            try
            {
                var definition = member.Resolve();
                if (definition == null) return "no such member in the reference set";
                var method = definition as MethodDefinition;
                if (method != null && !(method.IsPublic || method.IsFamily || method.IsFamilyOrAssembly)) return "the member is not public";
                var field = definition as FieldDefinition;
                if (field != null && !(field.IsPublic || field.IsFamily || field.IsFamilyOrAssembly)) return "the member is not public";
                return null;
            }
            catch (AssemblyResolutionException error)
            {
                return "its assembly " + error.AssemblyReference.Name + " is not in the reference set";
            }
        }

        static string Entry(string kind, string member, string assembly, string why)
        {
            var text = "{\"kind\":" + Quote(kind) + ",\"member\":" + Quote(member) + ",\"assembly\":" + Quote(assembly) +
                       ",\"found\":" + (why == null ? "true" : "false");
            if (why != null) text += ",\"why\":" + Quote(why);
            return text + "}";
        }

        static string Quote(string text)
        {
            var quoted = new StringBuilder("\"");
            foreach (var c in text)
            {
                if (c == '"' || c == '\\') quoted.Append('\\').Append(c);
                else if (c < ' ') quoted.Append("\\u").Append(((int)c).ToString("x4"));
                else quoted.Append(c);
            }
            return quoted.Append('"').ToString();
        }
    }
}
