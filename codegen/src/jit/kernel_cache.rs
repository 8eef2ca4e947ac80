//! The kernel cache's side of [`super::compile`]: each kernel is looked up by its own key
//! ([`kernel_key`], its code without its name, [`code_relevant`]), whose entry names the object
//! file in the cache that holds its code (one per compiled group, [`kernel_entry`]) and its symbol
//! there; [`load_cached`] loads each such object file once.

use super::strength_reduction::{LSR_PIPELINE, MAX_LOOPS};
use super::{host, load_object, CacheOutcome, Code, OPT_LEVEL, PIPELINE};
use arrayc_dialect::ir;
use arrayc_passes::disk_cache::{compiler_identity, DiskCache, Key, Lookup};

/// Loads from `c` the object files that hold the kernels of `keys` ([`cached_objects`]), each once,
/// into `code`; sets the packed entry (`entries`) and outcome of each kernel found; returns how
/// many object files were loaded. A corrupt or unloadable object file, or one without the kernel's
/// symbol, makes the kernel's outcome [`CacheOutcome::Replaced`]; its entry stays 0 (compile it).
pub(super) fn load_cached(
    c: &DiskCache,
    keys: &[Key],
    entries: &mut [usize],
    outcomes: &mut [CacheOutcome],
    code: &mut Vec<Code>,
) -> usize {
    let mut loaded_files = 0;
    for (object, found) in cached_objects(c, keys, outcomes) {
        let loaded = match c.get(&object) {
            Lookup::Hit(bytes) => {
                load_object(&bytes).map_err(|e| format!("cached object code could not be loaded ({e})"))
            }
            Lookup::Miss => continue,
            Lookup::Corrupt(why) => Err(why),
        };
        match loaded {
            Ok(object_code) => {
                loaded_files += 1;
                for (i, symbol) in found {
                    match object_code.packed(&symbol) {
                        Some(p) => (entries[i], outcomes[i]) = (p as usize, CacheOutcome::Hit),
                        None => outcomes[i] = CacheOutcome::Replaced(format!("cached object code lacks @{symbol}")),
                    }
                }
                code.push(object_code);
            }
            Err(why) => found.iter().for_each(|(i, _)| outcomes[*i] = CacheOutcome::Replaced(why.clone())),
        }
    }
    loaded_files
}

/// Looks up each kernel's [`kernel_key`] in `c`: the kernels found, grouped by the key of the
/// object file that holds them, with their symbols in it (in order of first appearance). The
/// outcome of a kernel whose entry is corrupt becomes [`CacheOutcome::Replaced`].
fn cached_objects(c: &DiskCache, keys: &[Key], outcomes: &mut [CacheOutcome]) -> Vec<(Key, Vec<(usize, String)>)> {
    let mut objects: Vec<(Key, Vec<(usize, String)>)> = vec![];
    for (i, key) in keys.iter().enumerate() {
        match c.get(key) {
            Lookup::Hit(payload) => match parse_kernel_entry(&payload) {
                Some((object, symbol)) => match objects.iter_mut().find(|(o, _)| *o == object) {
                    Some((_, found)) => found.push((i, symbol)),
                    None => objects.push((object, vec![(i, symbol)])),
                },
                None => outcomes[i] = CacheOutcome::Replaced("a kernel's cache entry names no object file".into()),
            },
            Lookup::Miss => {}
            Lookup::Corrupt(why) => outcomes[i] = CacheOutcome::Replaced(why),
        }
    }
    objects
}

/// A kernel's cache entry: the key of the object file that holds its code (32 bytes), then its
/// symbol's name in that file (UTF-8; the kernel's name when it was compiled).
pub(super) fn kernel_entry(object: &Key, symbol: &str) -> Vec<u8> {
    [&object.as_bytes()[..], symbol.as_bytes()].concat()
}

/// The inverse of [`kernel_entry`]; `None` for a payload that is not one.
fn parse_kernel_entry(payload: &[u8]) -> Option<(Key, String)> {
    let object = Key::from_bytes(payload.get(..32)?)?;
    let symbol = std::str::from_utf8(&payload[32..]).ok()?;
    (!symbol.is_empty()).then(|| (object, symbol.to_string()))
}

/// The cache key of the object code of one kernel, whatever its name: the kernel itself (its
/// `ir::Func` as [`code_relevant`] gives it: the code generator's whole input), the settings
/// that shape the object code ([`PIPELINE`], [`OPT_LEVEL`], where LSR runs, position independence), the target
/// triple, host CPU and features, LLVM's version, and [`compiler_identity`] (which changes with the
/// code generator). Computed without MLIR, so a cache hit builds no MLIR at all. Two fusion
/// configurations, or two versions of a program, that give a kernel the same code under different
/// names share its entry.
pub fn kernel_key(kernel: &ir::Func) -> Key {
    let settings = format!(
        "default<O{OPT_LEVEL}> {LSR_PIPELINE} where at most {MAX_LOOPS} loops, codegen O{OPT_LEVEL} -disable-lsr pic"
    );
    let kernel = postcard::to_stdvec(&code_relevant(kernel)).expect("kernels always serialise");
    Key::of(&[
        b"arrayc kernel v5",
        compiler_identity().as_bytes(),
        host_description().as_bytes(),
        settings.as_bytes(),
        PIPELINE.as_bytes(),
        &kernel,
    ])
}

/// `kernel` without what its object code does not depend on: its name (the symbol's, looked up by
/// the name it was compiled under), the names of its parameters and values, their defaults, and
/// each operation's source position and WSP block (kernel code generation uses neither: its MLIR
/// has unknown locations; a fault names its source position through the launch plan, made from the
/// kernel at hand). So a kernel keeps its cache entry when lines above it move.
fn code_relevant(kernel: &ir::Func) -> ir::Func {
    fn strip(body: &mut ir::Body) {
        for op in body {
            (op.loc, op.block) = (None, None);
            op.kind.bodies_mut().into_iter().for_each(strip);
        }
    }
    let mut f = ir::Func {
        name: String::new(),
        param_defaults: vec![],
        param_names: vec![],
        value_names: vec![],
        ..kernel.clone()
    };
    strip(&mut f.body);
    f
}

/// LLVM's version and the [`Host`](super::Host) (target triple, CPU and its features), as one string: what the
/// object code of a kernel depends on besides its MLIR. Made once per process (every kernel's
/// [`kernel_key`] includes it).
fn host_description() -> &'static str {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let h = host();
        let (triple, cpu, features) =
            (h.triple.to_string_lossy(), h.cpu.to_string_lossy(), h.features.to_string_lossy());
        let (mut major, mut minor, mut patch) = (0, 0, 0);
        // SAFETY: writes three integers.
        unsafe { llvm_sys::core::LLVMGetVersion(&mut major, &mut minor, &mut patch) };
        // Newline-separated: none of the parts contains one.
        format!("llvm {major}.{minor}.{patch}\n{triple}\n{cpu}\n{features}")
    })
}
