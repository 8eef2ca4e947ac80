//! The names in what `arrayc build --lib` generates: the rules that make every name the language
//! allows a valid name of the generated Python module and C header (`docs/language.md`, "Names in
//! libraries").
//!
//! * Python: a function or parameter name that is a Python keyword (`class`, `def`, `None`, ...),
//!   a name Python gives a meaning at module level (`__name__`, `__debug__`, ...) or a name of the
//!   module's own machinery (`__arrayc_call`) gets a trailing underscore (PEP 8's rule: `class_`),
//!   repeated until it is free: neither reserved nor another function's (or parameter's) name. The
//!   module's helpers live under private names a function cannot take, and see the builtins and
//!   NumPy through closures, so a function named `numpy`, `len` or `ValueError` shadows nothing.
//! * C: a parameter name that C or the header reserves (a keyword such as `double`, a name
//!   `<stddef.h>` or `<stdint.h>` defines, `linux`/`unix`, which GCC predefines, the wrapper's own
//!   `args`, `results`, `error`, `error_len`, or a name of the header) gets a trailing underscore,
//!   repeated until it is free (an array parameter `x` also takes `x_shape` and `x_strides`); a
//!   name beginning with `__` or `_` and a capital letter (the compiler's) gets a `p` in front.
//! * The library `lib<NAME>.so`: NAME is the module's name, so it must be importable and hide no
//!   module the generated one needs: an ASCII identifier, not a Python keyword, not `numpy` or a
//!   module of Python's standard library, not `arrayc` (the header's prefix), and not beginning
//!   with `__` or `_` and a capital letter.

use std::collections::HashSet;

/// Python's keywords (`keyword.kwlist` of Python 3.11; the soft keywords `match`, `case`, `type`
/// and `_` are valid names).
const PYTHON_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

/// Module-level names Python itself reads or gives a meaning (`__debug__` cannot be assigned at all).
const PYTHON_MODULE_NAMES: [&str; 18] = [
    "__annotations__",
    "__all__",
    "__builtins__",
    "__cached__",
    "__class__",
    "__debug__",
    "__dict__",
    "__dir__",
    "__doc__",
    "__file__",
    "__getattr__",
    "__loader__",
    "__module__",
    "__name__",
    "__package__",
    "__path__",
    "__qualname__",
    "__spec__",
];

/// The generated module's own global names: its one entry point into the library, and the function
/// that builds it.
pub const PYTHON_HELPERS: [&str; 2] = ["__arrayc_call", "__arrayc_helpers"];

/// C's keywords (C23, with the older spellings and GCC's `asm`).
const C_KEYWORDS: [&str; 53] = [
    "alignas",
    "alignof",
    "asm",
    "auto",
    "bool",
    "break",
    "case",
    "char",
    "const",
    "constexpr",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "false",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "nullptr",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "struct",
    "switch",
    "thread_local",
    "true",
    "typedef",
    "typeof",
    "typeof_unqual",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Bool",
    "_Complex",
    "_Generic",
    "_Noreturn",
];

/// Names the header's includes (`<stddef.h>`, `<stdint.h>`) define or GCC predefines in its default
/// (GNU) mode, besides the `<stdint.h>` limit macros ([`is_stdint_macro`]).
const C_LIBRARY_NAMES: [&str; 38] = [
    "NULL",
    "offsetof",
    "size_t",
    "ptrdiff_t",
    "wchar_t",
    "max_align_t",
    "nullptr_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "int_least8_t",
    "int_least16_t",
    "int_least32_t",
    "int_least64_t",
    "uint_least8_t",
    "uint_least16_t",
    "uint_least32_t",
    "uint_least64_t",
    "int_fast8_t",
    "int_fast16_t",
    "int_fast32_t",
    "int_fast64_t",
    "uint_fast8_t",
    "uint_fast16_t",
    "uint_fast32_t",
    "uint_fast64_t",
    "intptr_t",
    "uintptr_t",
    "intmax_t",
    "uintmax_t",
    "linux",
    "unix",
    "i386",
];

/// The names every generated header declares, and the typed wrappers' own parameters and locals.
const C_HEADER_NAMES: [&str; 14] = [
    "arrayc_value",
    "arrayc_call",
    "arrayc_release",
    "ARRAYC_F64",
    "ARRAYC_F32",
    "ARRAYC_I64",
    "ARRAYC_BOOL",
    "ARRAYC_I32",
    "ARRAYC_U8",
    "ARRAYC_U64",
    "args",
    "results",
    "error",
    "error_len",
];

/// Python's standard library (`sys.stdlib_module_names` of Python 3.11): a module named like one
/// of them would hide it from NumPy, which the generated module imports.
const PYTHON_STDLIB: [&str; 305] = [
    "__future__",
    "_abc",
    "_aix_support",
    "_ast",
    "_asyncio",
    "_bisect",
    "_blake2",
    "_bootsubprocess",
    "_bz2",
    "_codecs",
    "_codecs_cn",
    "_codecs_hk",
    "_codecs_iso2022",
    "_codecs_jp",
    "_codecs_kr",
    "_codecs_tw",
    "_collections",
    "_collections_abc",
    "_compat_pickle",
    "_compression",
    "_contextvars",
    "_crypt",
    "_csv",
    "_ctypes",
    "_curses",
    "_curses_panel",
    "_datetime",
    "_dbm",
    "_decimal",
    "_elementtree",
    "_frozen_importlib",
    "_frozen_importlib_external",
    "_functools",
    "_gdbm",
    "_hashlib",
    "_heapq",
    "_imp",
    "_io",
    "_json",
    "_locale",
    "_lsprof",
    "_lzma",
    "_markupbase",
    "_md5",
    "_msi",
    "_multibytecodec",
    "_multiprocessing",
    "_opcode",
    "_operator",
    "_osx_support",
    "_overlapped",
    "_pickle",
    "_posixshmem",
    "_posixsubprocess",
    "_py_abc",
    "_pydecimal",
    "_pyio",
    "_queue",
    "_random",
    "_scproxy",
    "_sha1",
    "_sha256",
    "_sha3",
    "_sha512",
    "_signal",
    "_sitebuiltins",
    "_socket",
    "_sqlite3",
    "_sre",
    "_ssl",
    "_stat",
    "_statistics",
    "_string",
    "_strptime",
    "_struct",
    "_symtable",
    "_thread",
    "_threading_local",
    "_tkinter",
    "_tokenize",
    "_tracemalloc",
    "_typing",
    "_uuid",
    "_warnings",
    "_weakref",
    "_weakrefset",
    "_winapi",
    "_zoneinfo",
    "abc",
    "aifc",
    "antigravity",
    "argparse",
    "array",
    "ast",
    "asynchat",
    "asyncio",
    "asyncore",
    "atexit",
    "audioop",
    "base64",
    "bdb",
    "binascii",
    "bisect",
    "builtins",
    "bz2",
    "cProfile",
    "calendar",
    "cgi",
    "cgitb",
    "chunk",
    "cmath",
    "cmd",
    "code",
    "codecs",
    "codeop",
    "collections",
    "colorsys",
    "compileall",
    "concurrent",
    "configparser",
    "contextlib",
    "contextvars",
    "copy",
    "copyreg",
    "crypt",
    "csv",
    "ctypes",
    "curses",
    "dataclasses",
    "datetime",
    "dbm",
    "decimal",
    "difflib",
    "dis",
    "distutils",
    "doctest",
    "email",
    "encodings",
    "ensurepip",
    "enum",
    "errno",
    "faulthandler",
    "fcntl",
    "filecmp",
    "fileinput",
    "fnmatch",
    "fractions",
    "ftplib",
    "functools",
    "gc",
    "genericpath",
    "getopt",
    "getpass",
    "gettext",
    "glob",
    "graphlib",
    "grp",
    "gzip",
    "hashlib",
    "heapq",
    "hmac",
    "html",
    "http",
    "idlelib",
    "imaplib",
    "imghdr",
    "imp",
    "importlib",
    "inspect",
    "io",
    "ipaddress",
    "itertools",
    "json",
    "keyword",
    "lib2to3",
    "linecache",
    "locale",
    "logging",
    "lzma",
    "mailbox",
    "mailcap",
    "marshal",
    "math",
    "mimetypes",
    "mmap",
    "modulefinder",
    "msilib",
    "msvcrt",
    "multiprocessing",
    "netrc",
    "nis",
    "nntplib",
    "nt",
    "ntpath",
    "nturl2path",
    "numbers",
    "opcode",
    "operator",
    "optparse",
    "os",
    "ossaudiodev",
    "pathlib",
    "pdb",
    "pickle",
    "pickletools",
    "pipes",
    "pkgutil",
    "platform",
    "plistlib",
    "poplib",
    "posix",
    "posixpath",
    "pprint",
    "profile",
    "pstats",
    "pty",
    "pwd",
    "py_compile",
    "pyclbr",
    "pydoc",
    "pydoc_data",
    "pyexpat",
    "queue",
    "quopri",
    "random",
    "re",
    "readline",
    "reprlib",
    "resource",
    "rlcompleter",
    "runpy",
    "sched",
    "secrets",
    "select",
    "selectors",
    "shelve",
    "shlex",
    "shutil",
    "signal",
    "site",
    "smtpd",
    "smtplib",
    "sndhdr",
    "socket",
    "socketserver",
    "spwd",
    "sqlite3",
    "sre_compile",
    "sre_constants",
    "sre_parse",
    "ssl",
    "stat",
    "statistics",
    "string",
    "stringprep",
    "struct",
    "subprocess",
    "sunau",
    "symtable",
    "sys",
    "sysconfig",
    "syslog",
    "tabnanny",
    "tarfile",
    "telnetlib",
    "tempfile",
    "termios",
    "textwrap",
    "this",
    "threading",
    "time",
    "timeit",
    "tkinter",
    "token",
    "tokenize",
    "tomllib",
    "trace",
    "traceback",
    "tracemalloc",
    "tty",
    "turtle",
    "turtledemo",
    "types",
    "typing",
    "unicodedata",
    "unittest",
    "urllib",
    "uu",
    "uuid",
    "venv",
    "warnings",
    "wave",
    "weakref",
    "webbrowser",
    "winreg",
    "winsound",
    "wsgiref",
    "xdrlib",
    "xml",
    "xmlrpc",
    "zipapp",
    "zipfile",
    "zipimport",
    "zlib",
    "zoneinfo",
];

/// Whether `name` is one of `<stdint.h>`'s limit and constant macros (`INT64_MAX`, `SIZE_MAX`,
/// `INT64_C`, ...): upper case, ending in `_MAX`, `_MIN`, `_C` or `_WIDTH`.
fn is_stdint_macro(name: &str) -> bool {
    name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && ["_MAX", "_MIN", "_C", "_WIDTH"].iter().any(|s| name.ends_with(s))
}

/// Whether C reserves `name` for the compiler (it begins with `__` or `_` and a capital letter).
fn c_implementation_name(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() >= 2 && b[0] == b'_' && (b[1] == b'_' || b[1].is_ascii_uppercase())
}

/// Whether `name` may not be a name of its own in the generated Python module.
fn python_reserved(name: &str) -> bool {
    PYTHON_KEYWORDS.contains(&name) || PYTHON_MODULE_NAMES.contains(&name) || PYTHON_HELPERS.contains(&name)
}

/// Whether `name` is a name C or the generated header gives a meaning (see the module docs);
/// `guard` is the header's include guard.
fn c_reserved(name: &str, guard: &str) -> bool {
    C_KEYWORDS.contains(&name)
        || C_LIBRARY_NAMES.contains(&name)
        || C_HEADER_NAMES.contains(&name)
        || is_stdint_macro(name)
        || name == guard
}

/// Appends underscores to `name` while `busy` says it is taken.
fn with_underscores(name: &str, busy: impl Fn(&str) -> bool) -> String {
    let mut n = name.to_string();
    while busy(&n) {
        n.push('_');
    }
    n
}

/// The Python names of `names` (a module's functions, or one function's parameters), in order:
/// each reserved name gets trailing underscores until it is neither reserved nor any other of
/// `names`, nor the Python name given to an earlier one.
pub fn python_names(names: &[String]) -> Vec<String> {
    let mut given: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(names.len());
    for (k, n) in names.iter().enumerate() {
        let p = if python_reserved(n) {
            with_underscores(n, |c| {
                python_reserved(c) || given.contains(c) || names.iter().enumerate().any(|(j, o)| j != k && o == c)
            })
        } else {
            n.clone()
        };
        given.insert(p.clone());
        out.push(p);
    }
    out
}

/// The C names of one function's parameters `(name, is_array)` in its typed wrapper, in order (see
/// the module docs); an array's name `x` also takes `x_shape` and `x_strides`. `guard` is the
/// header's include guard.
pub fn c_param_names(params: &[(String, bool)], guard: &str) -> Vec<String> {
    let derived = |n: &str, array: bool| -> Vec<String> {
        if array {
            vec![n.to_string(), format!("{n}_shape"), format!("{n}_strides")]
        } else {
            vec![n.to_string()]
        }
    };
    let mut taken: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(params.len());
    for (n, array) in params {
        let start = if c_implementation_name(n) { format!("p{n}") } else { n.clone() };
        let c =
            with_underscores(&start, |c| derived(c, *array).iter().any(|d| c_reserved(d, guard) || taken.contains(d)));
        taken.extend(derived(&c, *array));
        out.push(c);
    }
    out
}

/// The include guard of the header of library `name`.
pub fn header_guard(name: &str) -> String {
    format!("ARRAYC_{}_H", name.to_uppercase())
}

/// Checks that `name` (of `lib<name>.so`) makes an importable Python module that hides no module the
/// generated one needs, and a header whose names are C's to use. Errors: the reason.
pub fn check_library_name(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let identifier = chars.next().is_some_and(|f| f == '_' || f.is_ascii_alphabetic())
        && chars.all(|x| x == '_' || x.is_ascii_alphanumeric());
    if !identifier {
        return Err(format!("`{name}` is not a Python identifier (letters, digits and `_`, not starting with a digit), so `import {name}` would fail"));
    }
    if PYTHON_KEYWORDS.contains(&name) {
        return Err(format!("`{name}` is a Python keyword, so `import {name}` would be a syntax error"));
    }
    if name == "numpy" || PYTHON_STDLIB.contains(&name) {
        return Err(format!(
            "a module `{name}.py` would hide Python's module `{name}` from the programs (and from NumPy) run beside it"
        ));
    }
    if name == "arrayc" {
        return Err(
            "the header's own names begin with `arrayc_`, so the wrappers `arrayc_<function>` could clash with them"
                .into(),
        );
    }
    if c_implementation_name(name) {
        return Err(format!("names beginning with `__` or `_` and a capital letter are the C compiler's, and the header's wrappers would be `{name}_<function>`"));
    }
    Ok(())
}

/// Checks that the C name of the typed wrapper of function `function` in library `name`,
/// `<name>_<function>`, is free in the header. Errors: the reason.
pub fn check_wrapper_name(name: &str, function: &str) -> Result<(), String> {
    let w = format!("{name}_{function}");
    if c_reserved(&w, &header_guard(name)) {
        return Err(format!(
            "the C wrapper of function `{function}` would be `{w}`, a name C or the header already gives a meaning"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn python_names_escape_keywords_and_helpers_with_underscores() {
        assert_eq!(
            python_names(&strings(&["class", "class_", "numpy", "__arrayc_call", "None", "len", "__debug__"])),
            strings(&["class__", "class_", "numpy", "__arrayc_call_", "None_", "len", "__debug___"])
        );
        assert_eq!(python_names(&strings(&["def", "x"])), strings(&["def_", "x"]));
    }

    #[test]
    fn c_names_escape_keywords_macros_and_derived_names() {
        let p = |v: &[(&str, bool)]| v.iter().map(|(n, a)| (n.to_string(), *a)).collect::<Vec<_>>();
        assert_eq!(
            c_param_names(
                &p(&[("double", false), ("x", true), ("x_shape", false), ("INT64_MAX", false), ("__x", true)]),
                "ARRAYC_Q_H"
            ),
            strings(&["double_", "x", "x_shape_", "INT64_MAX_", "p__x"])
        );
        assert_eq!(
            c_param_names(&p(&[("results", false), ("ARRAYC_Q_H", false)]), "ARRAYC_Q_H"),
            strings(&["results_", "ARRAYC_Q_H_"])
        );
    }

    #[test]
    fn library_names_must_make_importable_modules() {
        for bad in ["numpy", "1x", "class", "os", "arrayc", "__x", "_X", "a-b", ""] {
            assert!(check_library_name(bad).is_err(), "{bad}");
        }
        for good in ["heat", "_x", "q1", "match"] {
            assert!(check_library_name(good).is_ok(), "{good}");
        }
        assert!(check_wrapper_name("int64", "t").is_err());
        assert!(check_wrapper_name("q", "f").is_ok());
    }
}
