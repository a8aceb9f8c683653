# SPDX-License-Identifier: Apache-2.0
# Writes the binding classes of io.jccl.bindings (cuda, ibverbs, libc) in jextract's shape from
# spec.py, taking the constants' values from the headers through gcc. jextract cannot be had on our
# machines; this stands in for it. What it writes is proved against the headers by HeaderProbeTest,
# not by this script. Usage: python3 bindings/gen/gen.py [output source root]
import os, re, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(__file__))
from spec import *

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "src", "main", "java")
WORK = tempfile.mkdtemp(prefix="jccl-gen-")
CAR = {"I": ("int", "C_INT"), "J": ("long", "C_LONG"), "B": ("byte", "C_CHAR"), "F": ("float", "C_FLOAT"), "P": ("MemorySegment", "C_POINTER")}

def carrier(c):
    if c.startswith("S:"):
        return ("MemorySegment", c[2:] + ".layout()")
    return CAR[c]

def desc(ret, params):
    args = ", ".join(carrier(p[1])[1] for p in params)
    if ret == "V":
        return "FunctionDescriptor.ofVoid(%s)" % args
    return "FunctionDescriptor.of(%s)" % ", ".join([carrier(ret)[1]] + ([args] if args else []))

def jdoc_c(proto, indent, extra=""):
    return "%s/**\n%s * {@snippet lang=c :\n%s * %s\n%s * }\n%s%s */\n" % (indent, indent, indent, proto, indent, (indent + " * " + extra + "\n") if extra else "", indent)

def invoker(name, ret, params, holder, errno, indent, handle_expr, first=None):
    jr = "void" if ret == "V" else carrier(ret)[0]
    ps = ([first] if first else []) + (["MemorySegment callState"] if errno else []) + ["%s %s" % (carrier(c)[0], n) for n, c in params]
    args = ([first.split()[1]] if first else []) + (["callState"] if errno else []) + [n for n, c in params]
    call = "%s.invokeExact(%s)" % (handle_expr, ", ".join(args))
    body = ("%s;" % call) if ret == "V" else ("return (%s) %s;" % (jr, call))
    return ("%spublic static %s %s(%s) {\n%s    try {\n%s        %s\n%s    } catch (Throwable t) {\n%s        throw NativeLibrary.unchecked(t);\n%s    }\n%s}\n"
            % (indent, jr, name, ", ".join(ps), indent, indent, body, indent, indent, indent, indent))

def const_values(header_includes, names, cflags):
    src = "#include <stdio.h>\n" + "".join("#include <%s>\n" % h for h in header_includes) + "int main(void){\n"
    for n in names:
        src += '  printf("%%s %%lld\\n", "%s", (long long)(%s));\n' % (n, n)
    src += "  return 0;\n}\n"
    open(os.path.join(WORK, "c.c"), "w").write(src)
    subprocess.check_call(["gcc"] + cflags + [os.path.join(WORK, "c.c"), "-o", os.path.join(WORK, "c")])
    out = subprocess.check_output([os.path.join(WORK, "c")]).decode()
    return dict((l.split()[0], int(l.split()[1])) for l in out.splitlines())

def expand_groups(groups, header_text):
    res = []
    for title, names in groups:
        if isinstance(names, str) and names.startswith("RE:"):
            rx = re.compile(r"^\s*(" + names[3:] + r")\s*[=,]", re.M)
            seen = []
            for m in rx.finditer(header_text):
                if m.group(1) not in seen:
                    seen.append(m.group(1))
            names = seen
        res.append((title, names))
    return res

def library_class(pkg, cls, doc, libdecl, funcs, const_groups, headers, cflags, header_text, extra_imports=""):
    groups = expand_groups(const_groups, header_text)
    vals = const_values(headers, [n for _, ns in groups for n in ns], cflags) if groups else {}
    o = []
    o.append("// SPDX-License-Identifier: Apache-2.0\npackage io.jccl.bindings.%s;\n\n" % pkg)
    o.append("import static io.jccl.bindings.CLayouts.*;\n\n")
    o.append("import io.jccl.bindings.NativeLibrary;\n" + extra_imports)
    o.append("import java.lang.foreign.FunctionDescriptor;\nimport java.lang.foreign.MemorySegment;\nimport java.lang.invoke.MethodHandle;\n\n")
    o.append(doc)
    o.append("public final class %s {\n    private %s() {}\n\n" % (cls, cls))
    o.append(libdecl)
    for title, names in groups:
        o.append("\n    // %s\n" % title)
        for n in names:
            v = vals[n]
            t = "int" if -2**31 <= v < 2**32 else "long"
            if t == "int" and v >= 2**31:
                v -= 2**32
            o.append("    public static final %s %s = %d%s;\n" % (t, n, v, "" if t == "int" else "L"))
    for title, fs in funcs:
        o.append("\n    // ---- %s ----\n" % title)
        for f in fs:
            sym, ret, params, proto = f[:4]
            errno = len(f) > 4 and f[4] == "errno"
            o.append("\n    private static final FunctionDescriptor %s$DESC = %s;\n\n" % (sym, desc(ret, params)))
            o.append("    private static final class %s {\n        static final MethodHandle HANDLE = LIBRARY.downcall(\"%s\", %s$DESC%s);\n    }\n\n"
                     % (sym, sym, sym, ", Errno.CAPTURE" if errno else ""))
            o.append(jdoc_c(proto, "    "))
            o.append("    public static FunctionDescriptor %s$descriptor() {\n        return %s$DESC;\n    }\n\n" % (sym, sym))
            o.append("    /** The downcall handle of {@code %s}%s; the symbol is looked up on first use. */\n" % (sym, ", taking the errno capture segment first" if errno else ""))
            o.append("    public static MethodHandle %s$handle() {\n        return %s.HANDLE;\n    }\n\n" % (sym, sym))
            o.append(jdoc_c(proto, "    ", "<p>{@code callState}: a segment from {@link Errno#allocate}, where errno is captured." if errno else ""))
            o.append(invoker(sym, ret, params, sym, errno, "    ", sym + ".HANDLE"))
    o.append("}\n")
    path = os.path.join(OUT, "io/jccl/bindings", pkg, cls + ".java")
    open(path, "w").write("".join(o))

# ---------- structs ----------
SCALAR = {"u8": (1, "C_CHAR", "byte", "OfByte"), "u16": (2, "C_SHORT", "short", "OfShort"), "u32": (4, "C_INT", "int", "OfInt"),
          "u64": (8, "C_LONG", "long", "OfLong"), "ptr": (8, "C_POINTER", "MemorySegment", "AddressLayout"), "f32": (4, "C_FLOAT", "float", "OfFloat")}
STRUCT_SA = {}  # name -> (size, align)

def size_align(t):
    if isinstance(t, str):
        s = SCALAR[t][0]; return s, s
    k = t[0]
    if k == "arr":
        s, a = size_align(t[1]); return s * t[2], a
    if k == "ref":
        return STRUCT_SA[t[1]]
    if k == "opaque":
        return t[2], t[3]
    if k in ("group", "anon"):
        return group_size_align(t[1], t[2])

def group_size_align(kind, fields):
    off = 0; al = 1; mx = 0
    for n, t in fields:
        s, a = size_align(t)
        al = max(al, a)
        if kind == "struct":
            off = (off + a - 1) // a * a + s
        else:
            mx = max(mx, s)
    size = off if kind == "struct" else mx
    return (size + al - 1) // al * al, al

def layout_expr(kind, fields, name, ind):
    parts = []; off = 0
    _, gal = group_size_align(kind, fields)
    mx = 0
    for n, t in fields:
        s, a = size_align(t)
        if kind == "struct":
            pad = (off + a - 1) // a * a - off
            if pad:
                parts.append("MemoryLayout.paddingLayout(%d)" % pad)
            off += pad + s
        mx = max(mx, s)
        parts.append(elem_expr(t, n, ind + "    "))
    total, _ = group_size_align(kind, fields)
    if kind == "struct" and total > off:
        parts.append("MemoryLayout.paddingLayout(%d)" % (total - off))
    if kind == "union" and total > mx:
        parts.append("MemoryLayout.paddingLayout(%d)" % total)
    fn = "structLayout" if kind == "struct" else "unionLayout"
    sep = ",\n" + ind + "    "
    return "MemoryLayout.%s(\n%s    %s)%s" % (fn, ind, sep.join(parts), ('.withName("%s")' % name) if name else "")

def elem_expr(t, n, ind):
    if isinstance(t, str):
        return '%s.withName("%s")' % (SCALAR[t][1], n)
    k = t[0]
    if k == "arr":
        return 'MemoryLayout.sequenceLayout(%d, %s).withName("%s")' % (t[2], SCALAR[t[1]][1], n)
    if k == "ref":
        return '%s.layout().withName("%s")' % (t[1], n)
    if k == "opaque":
        return 'MemoryLayout.sequenceLayout(%d, %s).withName("%s") /* %s */' % (t[2] // t[3], {8: "C_LONG", 4: "C_INT"}[t[3]], n, t[1])
    if k in ("group", "anon"):
        return layout_expr(t[1], t[2], n, ind)

def accessors(fields, ind, root, path, lay="$LAYOUT"):
    """Accessors for fields of a group whose layout constant is `lay`; path: java path prefix for anon members"""
    o = []
    for n, t in fields:
        p = path + ['groupElement("%s")' % n]
        sel = ", ".join(p)
        if isinstance(t, tuple) and t[0] == "anon":
            o.extend(accessors(t[2], ind, root, p, lay))
            continue
        o.append("\n%sprivate static final long %s$OFFSET = %s.byteOffset(%s);\n\n" % (ind, n, lay, sel))
        o.append("%s/** Offset of {@code %s} in bytes. */\n%spublic static long %s$offset() {\n%s    return %s$OFFSET;\n%s}\n" % (ind, n, ind, n, ind, n, ind))
        if isinstance(t, str):
            size, cl, jt, lt = SCALAR[t]
            o.append("\n%sprivate static final %s %s$LAYOUT = (%s) %s.select(%s);\n\n" % (ind, lt, n, lt, lay, sel))
            o.append("%spublic static %s %s(MemorySegment struct) {\n%s    return struct.get(%s$LAYOUT, %s$OFFSET);\n%s}\n\n" % (ind, jt, n, ind, n, n, ind))
            o.append("%spublic static void %s(MemorySegment struct, %s fieldValue) {\n%s    struct.set(%s$LAYOUT, %s$OFFSET, fieldValue);\n%s}\n" % (ind, n, jt, ind, n, n, ind))
        else:
            k = t[0]
            o.append("\n%sprivate static final MemoryLayout %s$LAYOUT = %s.select(%s);\n\n" % (ind, n, lay, sel))
            o.append("%s/** The {@code %s} member as a slice of {@code struct}. */\n" % (ind, n))
            o.append("%spublic static MemorySegment %s(MemorySegment struct) {\n%s    return struct.asSlice(%s$OFFSET, %s$LAYOUT.byteSize());\n%s}\n" % (ind, n, ind, n, n, ind))
            if k in ("ref", "arr"):
                o.append("\n%spublic static void %s(MemorySegment struct, MemorySegment fieldValue) {\n%s    MemorySegment.copy(fieldValue, 0L, struct, %s$OFFSET, %s$LAYOUT.byteSize());\n%s}\n" % (ind, n, ind, n, n, ind))
            if k == "group":
                o.append(nested_class(n, t, ind, root + "." + lay, sel, root + "." + n))
    return o

def nested_class(n, t, ind, lay, sel, qual):
    o = ["\n%s/** The unnamed %s type of member {@code %s}. */\n" % (ind, t[1], n)]
    o.append("%spublic static final class %s {\n%s    private %s() {}\n\n" % (ind, n, ind, n))
    o.append("%s    private static final GroupLayout $LAYOUT = (GroupLayout) %s.select(%s);\n\n" % (ind, lay, sel))
    o.append("%s    public static GroupLayout layout() {\n%s        return $LAYOUT;\n%s    }\n" % (ind, ind, ind))
    o.extend(accessors(t[2], ind + "    ", qual, []))
    o.append("%s}\n" % ind)
    return "".join(o)

def fnptr_class(fp, ind):
    n, ret, params, proto = fp
    o = ["\n" + jdoc_c(proto, ind)]
    o.append("%spublic static final class %s {\n%s    private %s() {}\n\n" % (ind, n, ind, n))
    o.append("%s    private static final FunctionDescriptor $DESC = %s;\n\n" % (ind, desc(ret, params)))
    o.append("%s    private static final MethodHandle $HANDLE = Linker.nativeLinker().downcallHandle($DESC);\n\n" % ind)
    o.append("%s    public static FunctionDescriptor descriptor() {\n%s        return $DESC;\n%s    }\n\n" % (ind, ind, ind))
    o.append("%s    /** Calls the function at {@code funcPtr}, a value of this member. */\n" % ind)
    o.append(invoker("invoke", ret, params, None, False, ind + "    ", "$HANDLE", first="MemorySegment funcPtr"))
    o.append("%s}\n" % ind)
    return "".join(o)

def struct_class(pkg, name, kind, cdoc, fields, fnptrs):
    STRUCT_SA[name] = group_size_align(kind, fields)
    uses_fp = bool(fnptrs)
    o = ["// SPDX-License-Identifier: Apache-2.0\npackage io.jccl.bindings.%s;\n\n" % pkg, "import static io.jccl.bindings.CLayouts.*;\nimport static java.lang.foreign.MemoryLayout.PathElement.groupElement;\n\n"]
    if uses_fp:
        o.append("import io.jccl.bindings.NativeLibrary;\n")
    o.append("import java.lang.foreign.AddressLayout;\n" if "ptr" in repr(fields) else "")
    if uses_fp:
        o.append("import java.lang.foreign.FunctionDescriptor;\n")
    o.append("import java.lang.foreign.GroupLayout;\n")
    if uses_fp:
        o.append("import java.lang.foreign.Linker;\n")
    o.append("import java.lang.foreign.MemoryLayout;\nimport java.lang.foreign.MemorySegment;\nimport java.lang.foreign.SegmentAllocator;\n")
    kinds = set(re.findall(r"'(u8|u16|u32|u64|f32)'", repr(fields)))
    for lt in sorted(SCALAR[k][3] for k in kinds):
        o.append("import java.lang.foreign.ValueLayout.%s;\n" % lt)
    if uses_fp:
        o.append("import java.lang.invoke.MethodHandle;\n")
    o.append("\n/**\n * {@snippet lang=c :\n * %s\n * }\n */\n" % cdoc)
    o.append("public final class %s {\n    private %s() {}\n\n" % (name, name))
    o.append("    private static final GroupLayout $LAYOUT = %s;\n\n" % layout_expr(kind, fields, name, "    "))
    o.append("    public static GroupLayout layout() {\n        return $LAYOUT;\n    }\n\n")
    o.append("    public static MemorySegment allocate(SegmentAllocator allocator) {\n        return allocator.allocate($LAYOUT);\n    }\n\n")
    o.append("    public static MemorySegment allocateArray(long count, SegmentAllocator allocator) {\n        return allocator.allocate(MemoryLayout.sequenceLayout(count, $LAYOUT));\n    }\n\n")
    o.append("    /** Element {@code index} of an array of this %s. */\n    public static MemorySegment asSlice(MemorySegment array, long index) {\n        return array.asSlice($LAYOUT.byteSize() * index, $LAYOUT.byteSize());\n    }\n\n" % kind)
    o.append("    /** A pointer to this %s, as returned by the library, widened to the %s's size. */\n    public static MemorySegment reinterpret(MemorySegment address) {\n        return address.reinterpret($LAYOUT.byteSize());\n    }\n" % (kind, kind))
    o.extend(accessors(fields, "    ", name, []))
    for fp in fnptrs:
        o.append(fnptr_class(fp, "    "))
    o.append("}\n")
    open(os.path.join(OUT, "io/jccl/bindings", pkg, name + ".java"), "w").write("".join(o))

for d in ("cuda", "ibverbs", "libc", "nvml"):
    os.makedirs(os.path.join(OUT, "io/jccl/bindings", d), exist_ok=True)

CUDA_INC = os.environ.get("CUDA_HOME", "/usr/local/cuda") + "/include"
cuda_h = open(CUDA_INC + "/cuda.h").read()
verbs_h = open("/usr/include/infiniband/verbs.h").read()
for s in CUDA_STRUCTS:
    struct_class("cuda", *s)
for s in IBV_STRUCTS:
    struct_class("ibverbs", *s)
for s in LIBC_STRUCTS:
    struct_class("libc", *s)
for s in NVML_STRUCTS:
    struct_class("nvml", *s)

CUDA_DOC = open(os.path.join(HERE, "cuda_doc.txt")).read()
IBV_DOC = open(os.path.join(HERE, "ibv_doc.txt")).read()
LIBC_DOC = open(os.path.join(HERE, "libc_doc.txt")).read()
library_class("cuda", "Cuda", CUDA_DOC,
  '    /** libcuda: {@code JCCL_CUDA_LIB} or {@code -Djccl.cuda.lib}, else {@code libcuda.so.1} on the loader\'s path. */\n'
  '    public static final NativeLibrary LIBRARY = new NativeLibrary("the CUDA driver", "libcuda.so.1", "JCCL_CUDA_LIB", "jccl.cuda.lib");\n',
  CUDA_FUNCS, CUDA_CONST_GROUPS, ["cuda.h"], ["-I" + CUDA_INC], cuda_h)
library_class("ibverbs", "IbVerbs", IBV_DOC,
  '    /** libibverbs: {@code JCCL_IBVERBS_LIB} or {@code -Djccl.ibverbs.lib}, else {@code libibverbs.so.1} on the loader\'s path. */\n'
  '    public static final NativeLibrary LIBRARY = new NativeLibrary("libibverbs", "libibverbs.so.1", "JCCL_IBVERBS_LIB", "jccl.ibverbs.lib");\n',
  IBV_FUNCS, IBV_CONST_GROUPS, ["infiniband/verbs.h"], [], verbs_h, extra_imports="import io.jccl.bindings.Errno;\n")
library_class("libc", "LibC", LIBC_DOC,
  '    /** The C library the JVM already runs on. */\n'
  '    public static final NativeLibrary LIBRARY = NativeLibrary.defaultLibraries("the C library");\n',
  LIBC_FUNCS, [], ["string.h", "sys/uio.h", "sched.h"], [], "", extra_imports="import io.jccl.bindings.Errno;\n")
nvml_h = open("/usr/include/nvml.h").read()
NVML_DOC = open(os.path.join(HERE, "nvml_doc.txt")).read()
library_class("nvml", "Nvml", NVML_DOC,
  '    /** libnvidia-ml: {@code JCCL_NVML_LIB} or {@code -Djccl.nvml.lib}, else {@code libnvidia-ml.so.1} on the loader\'s path. */\n'
  '    public static final NativeLibrary LIBRARY = new NativeLibrary("NVML", "libnvidia-ml.so.1", "JCCL_NVML_LIB", "jccl.nvml.lib");\n',
  NVML_FUNCS, NVML_CONST_GROUPS, ["nvml.h"], [], nvml_h)
print("generated")
