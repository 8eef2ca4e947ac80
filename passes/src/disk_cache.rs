//! The persistent compile cache: the object code of compiled kernel groups (`jit`) and the fusion
//! decisions of regions (the merge cache of Kristensen et al. 2016, Sec. V-F, `wsp::cache`), on
//! disk, so that a second `arrayc run` of the same program neither searches partitions nor compiles
//! kernels (Bohrium kept its fuse cache and kernels on disk too; JAX has a persistent compilation
//! cache).
//!
//! * **Where:** `$ARRAYC_CACHE_DIR` if set, else `$XDG_CACHE_HOME/arrayc`, else `~/.cache/arrayc`
//!   ([`DiskCache::default_dir`]).
//! * **Key:** a BLAKE3 hash ([`Key`]) of everything the entry depends on, [`compiler_identity`]
//!   included (version, and the path, size and modification time of the compiler's executable, so a
//!   rebuilt compiler never reuses an older one's entries). A kernel: its IR without its
//!   name, the lowering pipeline and optimisation level, the target triple, the host CPU and its
//!   features, LLVM's version (`jit::kernel_key`); its entry names the object file that holds its
//!   code (keyed by the keys and names of the kernels compiled into it) and its symbol there. Fusion decisions: the region's structure, the
//!   algorithm, cost model and budget (`wsp::cache`).
//! * **Entry:** one file `<key>.entry`: a header (magic, the key again, the payload's length and its
//!   BLAKE3 hash), then the payload (an object file, a kernel's object file and symbol, or a partition). An entry whose header, length or hash does not match is
//!   *corrupt* (truncated, damaged or foreign): it is removed and the kernels are compiled again,
//!   never loaded ([`Lookup::Corrupt`]).
//! * **Concurrency:** an entry is written to a temporary file in the cache directory and renamed
//!   into place (atomic on one file system), so concurrent processes see either no entry or a whole
//!   one; two processes compiling the same module both write it, the last rename wins.
//! * **Size bound:** when a store takes the cache past its bound in bytes of disk space
//!   (`$ARRAYC_CACHE_MAX_MB`, default [`DEFAULT_MAX_BYTES`]), the least recently used entries (by
//!   modification time, which a hit refreshes) are removed until it holds at most 90 % of it. An
//!   entry counts the disk blocks it takes ([`disk_bytes`]), not only its length: a kernel's entry
//!   is about 150 bytes in a 4 KiB block, and counting lengths let 938,000 such entries fill 4.1 GiB
//!   of disk under a 1 GiB bound. Knowing the cache's size takes a scan of the directory (a `stat`
//!   per entry: 2.4 s for those 938,000 entries), so a store does not scan: the file `usage`
//!   ([`USAGE_FILE`]) records the total, each store adds its entry to it and writes it back, and a
//!   store scans only when the total passes the bound or the record is older than [`USAGE_TTL`]
//!   (no store for that long: the daily scan corrects what concurrent stores, whose updates of the
//!   record may overwrite each other, left out). The bound is therefore soft: it may be passed by
//!   what such lost updates leave out.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// The default size bound of the cache directory: 1 GiB.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

/// The file in the cache directory that records the entries' total disk space: `disk <bytes>` (in
/// decimal; the prefix tells it from the entries' total length that older compilers recorded,
/// which is not trusted).
pub const USAGE_FILE: &str = "usage";

/// How long the total in [`USAGE_FILE`] is trusted, since the last store, before a store scans the
/// directory again.
pub const USAGE_TTL: Duration = Duration::from_secs(24 * 3600);

/// An entry file's first bytes (the format's version is its last byte).
const MAGIC: &[u8; 13] = b"arrayc-entry\x01";
/// An entry file's name ends with this.
const EXT: &str = "entry";
/// Header: magic, key (32 bytes), payload length (u64 little-endian), payload hash (32 bytes).
const HEADER: usize = MAGIC.len() + 32 + 8 + 32;

/// This compiler's identity for cache keys: its version, and its executable's path, size and
/// modification time (empty when they cannot be read). Read once per process: every key of every
/// kernel group and region includes it.
pub fn compiler_identity() -> &'static str {
    static IDENTITY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    IDENTITY.get_or_init(|| {
        let exe = std::env::current_exe()
            .ok()
            .and_then(|p| {
                let m = fs::metadata(&p).ok()?;
                Some(format!("{} {} {:?}", p.display(), m.len(), m.modified().ok()?))
            })
            .unwrap_or_default();
        format!("arrayc {} {exe}", env!("CARGO_PKG_VERSION"))
    })
}

/// The cache key of an entry: a BLAKE3 hash of its parts (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key([u8; 32]);

impl Key {
    /// The hash of `parts`, each length-prefixed (so no two different lists of parts collide by
    /// concatenation).
    pub fn of(parts: &[&[u8]]) -> Key {
        let mut h = blake3::Hasher::new();
        for p in parts {
            h.update(&(p.len() as u64).to_le_bytes());
            h.update(p);
        }
        Key(*h.finalize().as_bytes())
    }
    /// The key's 32 bytes (to store one key in another entry's payload).
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
    /// The key whose [`Key::as_bytes`] are `bytes`; `None` unless they are 32 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Option<Key> {
        bytes.try_into().ok().map(Key)
    }
    /// The key as 64 hexadecimal digits (the entry's file name).
    pub fn hex(&self) -> String {
        blake3::Hash::from_bytes(self.0).to_hex().to_string()
    }
}

/// What the cache holds for a key.
#[derive(Debug, PartialEq)]
pub enum Lookup {
    /// The object code stored for the key (its hash checked).
    Hit(Vec<u8>),
    /// No entry.
    Miss,
    /// An entry that failed its checks, now removed; the reason, for `--time`.
    Corrupt(String),
}

/// Entries and bytes of a cache directory ([`DiskCache::stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Number of entry files.
    pub entries: u64,
    /// The disk space they take, in bytes ([`disk_bytes`]).
    pub bytes: u64,
}

/// A cache directory of compiled kernel objects and fusion decisions (see the module docs). The directory is created on
/// the first store.
#[derive(Clone, Debug)]
pub struct DiskCache {
    dir: PathBuf,
    max_bytes: u64,
    /// Serialises this process's updates of [`USAGE_FILE`] (its stores run on several threads);
    /// shared by clones.
    record_lock: Arc<Mutex<()>>,
}

/// Why the compile cache cannot be used or changed. The drivers print it as an `error:` and exit
/// with status 1 (`--no-cache` runs without a cache).
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// None of `ARRAYC_CACHE_DIR`, `XDG_CACHE_HOME` and `HOME` is set.
    #[error("the kernel cache has no directory: set ARRAYC_CACHE_DIR, XDG_CACHE_HOME or HOME (or pass --no-cache)")]
    NoDirectory,
    /// `ARRAYC_CACHE_MAX_MB` (its text) is not a whole number.
    #[error("ARRAYC_CACHE_MAX_MB must be a whole number of MiB, not `{0}`")]
    BadLimit(String),
    /// The cache directory cannot be created or written.
    #[error("cannot write the kernel cache `{}`: {source}", .dir.display())]
    Write { dir: PathBuf, source: std::io::Error },
    /// An entry exists but cannot be removed.
    #[error("cannot remove `{}`: {source}", .path.display())]
    Remove { path: PathBuf, source: std::io::Error },
}

impl DiskCache {
    /// A cache in `dir` bounded to `max_bytes` bytes.
    pub fn new(dir: PathBuf, max_bytes: u64) -> DiskCache {
        DiskCache { dir, max_bytes, record_lock: Arc::new(Mutex::new(())) }
    }

    /// The cache the environment configures: [`DiskCache::default_dir`] bounded by
    /// `$ARRAYC_CACHE_MAX_MB` (MiB; default [`DEFAULT_MAX_BYTES`]).
    ///
    /// Errors: no directory can be named (neither variable nor `HOME` is set), or
    /// `$ARRAYC_CACHE_MAX_MB` is not a whole number.
    pub fn from_env() -> Result<DiskCache, CacheError> {
        let dir = Self::default_dir().ok_or(CacheError::NoDirectory)?;
        let max_bytes = match std::env::var("ARRAYC_CACHE_MAX_MB") {
            Ok(s) => {
                s.trim().parse::<u64>().map(|mb| mb.saturating_mul(1 << 20)).map_err(|_| CacheError::BadLimit(s))?
            }
            Err(_) => DEFAULT_MAX_BYTES,
        };
        Ok(DiskCache::new(dir, max_bytes))
    }

    /// `$ARRAYC_CACHE_DIR`, else `$XDG_CACHE_HOME/arrayc`, else `$HOME/.cache/arrayc` (empty
    /// variables count as unset, as the XDG specification says).
    pub fn default_dir() -> Option<PathBuf> {
        let var = |n: &str| std::env::var_os(n).filter(|v| !v.is_empty()).map(PathBuf::from);
        var("ARRAYC_CACHE_DIR")
            .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("arrayc")))
            .or_else(|| var("HOME").map(|h| h.join(".cache").join("arrayc")))
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, key: &Key) -> PathBuf {
        self.dir.join(format!("{}.{EXT}", key.hex()))
    }

    /// The object code stored for `key`, checked against the entry's header and hash. A hit
    /// refreshes the entry's modification time (its place in the LRU order). A corrupt entry is
    /// removed. An unreadable directory or entry is a miss.
    pub fn get(&self, key: &Key) -> Lookup {
        let path = self.path(key);
        let Ok(bytes) = fs::read(&path) else { return Lookup::Miss };
        match check_entry(key, &bytes) {
            Ok(()) => {
                if let Ok(f) = fs::File::options().append(true).open(&path) {
                    let _ = f.set_modified(SystemTime::now());
                }
                Lookup::Hit(bytes[HEADER..].to_vec())
            }
            Err(why) => {
                let _ = fs::remove_file(&path);
                Lookup::Corrupt(format!("{}: {why}", path.display()))
            }
        }
    }

    /// Stores `object` (any payload) for `key` (atomically: a temporary file renamed into place), then evicts the
    /// least recently used entries beyond the size bound.
    ///
    /// Errors: the directory cannot be created or written (a message naming it).
    pub fn put(&self, key: &Key, object: &[u8]) -> Result<(), CacheError> {
        let fail = |source: std::io::Error| CacheError::Write { dir: self.dir.clone(), source };
        fs::create_dir_all(&self.dir).map_err(fail)?;
        let mut tmp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(&self.dir).map_err(fail)?;
        tmp.write_all(MAGIC).map_err(fail)?;
        tmp.write_all(&key.0).map_err(fail)?;
        tmp.write_all(&(object.len() as u64).to_le_bytes()).map_err(fail)?;
        tmp.write_all(blake3::hash(object).as_bytes()).map_err(fail)?;
        tmp.write_all(object).map_err(fail)?;
        let path = self.path(key);
        tmp.persist(&path).map_err(|e| fail(e.error))?;
        let len = (HEADER + object.len()) as u64;
        self.account(fs::metadata(&path).map_or(len, |m| disk_bytes(&m)));
        Ok(())
    }

    /// Adds `added` bytes to the cache's size as [`USAGE_FILE`] records it and records the sum;
    /// when that passes the bound, or there is no record younger than [`USAGE_TTL`], scans the
    /// directory instead ([`DiskCache::evict`]) and records its total.
    fn account(&self, added: u64) {
        let _serial = self.record_lock.lock().unwrap_or_else(|e| e.into_inner());
        let total = match self.recorded_usage().and_then(|t| t.checked_add(added)) {
            Some(t) if t <= self.max_bytes => t,
            _ => self.evict(),
        };
        self.record_usage(total);
    }

    /// The total recorded in [`USAGE_FILE`], if it is younger than [`USAGE_TTL`] and well formed.
    fn recorded_usage(&self) -> Option<u64> {
        let path = self.dir.join(USAGE_FILE);
        let age = fs::metadata(&path).ok()?.modified().ok()?.elapsed().ok()?;
        if age > USAGE_TTL {
            return None;
        }
        fs::read_to_string(path).ok()?.trim().strip_prefix("disk ")?.parse().ok()
    }

    /// Records `total` in [`USAGE_FILE`] (atomically; a failure only means the next process scans).
    fn record_usage(&self, total: u64) {
        if let Ok(mut tmp) = tempfile::Builder::new().prefix(".tmp-").tempfile_in(&self.dir) {
            if tmp.write_all(format!("disk {total}").as_bytes()).is_ok() {
                let _ = tmp.persist(self.dir.join(USAGE_FILE));
            }
        }
    }

    /// Entry files with their size on disk ([`disk_bytes`]) and modification time.
    fn entries(&self) -> Vec<(PathBuf, u64, SystemTime)> {
        let Ok(rd) = fs::read_dir(&self.dir) else { return vec![] };
        rd.filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == EXT))
            .filter_map(|e| {
                let m = e.metadata().ok()?;
                Some((e.path(), disk_bytes(&m), m.modified().unwrap_or(SystemTime::UNIX_EPOCH)))
            })
            .collect()
    }

    /// Scans the directory; when its entries take more than the bound, removes the least recently
    /// used ones until at most 90 % of the bound remain (so that the stores which follow do not scan
    /// again at once: evicting only down to the bound made every later store pass it). Returns
    /// the disk space of the entries left (bytes).
    fn evict(&self) -> u64 {
        let mut entries = self.entries();
        let mut total: u64 = entries.iter().map(|e| e.1).sum();
        if total <= self.max_bytes {
            return total;
        }
        let low_water = self.max_bytes - self.max_bytes / 10;
        entries.sort_by_key(|e| e.2);
        for (path, size, _) in entries {
            if total <= low_water {
                break;
            }
            if fs::remove_file(&path).is_ok() {
                total = total.saturating_sub(size);
            }
        }
        total
    }

    /// The number of entries and their total size.
    pub fn stats(&self) -> Stats {
        let e = self.entries();
        Stats { entries: e.len() as u64, bytes: e.iter().map(|e| e.1).sum() }
    }

    /// Removes every entry (and stale temporary files); returns the number of entries removed.
    ///
    /// Errors: an entry that exists but cannot be removed.
    pub fn clear(&self) -> Result<u64, CacheError> {
        let n = self.entries().len() as u64;
        if let Ok(rd) = fs::read_dir(&self.dir) {
            for e in rd.filter_map(Result::ok) {
                let name = e.file_name();
                let name = name.to_string_lossy();
                if name.ends_with(&format!(".{EXT}")) || name.starts_with(".tmp-") || name == USAGE_FILE {
                    fs::remove_file(e.path()).map_err(|source| CacheError::Remove { path: e.path(), source })?;
                }
            }
        }
        Ok(n)
    }
}

/// The disk space a file takes (bytes): its allocated blocks (`st_blocks`, 512-byte units), or its
/// length where that is more (a file system that keeps small files inline reports no blocks).
pub fn disk_bytes(m: &fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    m.blocks().saturating_mul(512).max(m.len())
}

/// What is wrong with a cache entry's bytes ([`check_entry`]); the entry is then removed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum Damage {
    #[error("truncated ({0} bytes, shorter than the {HEADER}-byte header)")]
    Truncated(usize),
    #[error("not an arrayc kernel cache entry (or another version of the format)")]
    Foreign,
    #[error("the entry belongs to another key")]
    OtherKey,
    #[error("truncated or extended: {got} bytes of object code, the header says {header}")]
    Length { got: usize, header: u64 },
    #[error("checksum mismatch: the object code is damaged")]
    Checksum,
}

/// Checks an entry file's bytes against `key`: magic, key, length and payload hash.
fn check_entry(key: &Key, bytes: &[u8]) -> Result<(), Damage> {
    if bytes.len() < HEADER {
        return Err(Damage::Truncated(bytes.len()));
    }
    if &bytes[..MAGIC.len()] != MAGIC {
        return Err(Damage::Foreign);
    }
    let mut at = MAGIC.len();
    if bytes[at..at + 32] != key.0 {
        return Err(Damage::OtherKey);
    }
    at += 32;
    let len = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    at += 8;
    let payload = &bytes[HEADER..];
    if payload.len() as u64 != len {
        return Err(Damage::Length { got: payload.len(), header: len });
    }
    if blake3::hash(payload).as_bytes() != &bytes[at..at + 32] {
        return Err(Damage::Checksum);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(max: u64) -> (tempfile::TempDir, DiskCache) {
        let d = tempfile::tempdir().unwrap();
        let c = DiskCache::new(d.path().join("c"), max);
        (d, c)
    }

    /// The disk space of an entry with a 100-byte payload on the test directory's file system.
    fn entry_of_100_bytes() -> u64 {
        let (_d, c) = cache(1 << 20);
        c.put(&Key::of(&[b"probe"]), &[0; 100]).unwrap();
        let bytes = c.stats().bytes;
        assert!(bytes >= (HEADER + 100) as u64, "an entry takes at least its length: {bytes}");
        bytes
    }

    #[test]
    fn stored_objects_come_back_and_corrupt_entries_are_removed() {
        let (_d, c) = cache(1 << 20);
        let k = Key::of(&[b"module", b"x86_64"]);
        assert_eq!(c.get(&k), Lookup::Miss);
        c.put(&k, b"object code").unwrap();
        assert_eq!(c.get(&k), Lookup::Hit(b"object code".to_vec()));
        // The size is the entry's disk space: whole blocks, at least its length.
        let on_disk = disk_bytes(&fs::metadata(c.path(&k)).unwrap());
        assert!(on_disk >= (HEADER + 11) as u64);
        assert_eq!(c.stats(), Stats { entries: 1, bytes: on_disk });
        // Parts are length-prefixed: ["ab", "c"] and ["a", "bc"] are different keys.
        assert_ne!(Key::of(&[b"ab", b"c"]), Key::of(&[b"a", b"bc"]));
        let path = c.path(&k);
        let good = fs::read(&path).unwrap();
        let damaged = |f: fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            b
        };
        let cases = [
            ("truncated", damaged(|b| b.truncate(b.len() - 3))),
            ("a flipped bit", damaged(|b| *b.last_mut().unwrap() ^= 1)),
            ("foreign", damaged(|b| b[0] = b'X')),
            ("short", damaged(|b| b.truncate(10))),
        ];
        for (what, b) in cases {
            fs::write(&path, &b).unwrap();
            assert!(matches!(c.get(&k), Lookup::Corrupt(_)), "{what}");
            assert!(!path.exists(), "{what}: the corrupt entry is removed");
        }
        // An entry stored under another key's name is not trusted either.
        let other = Key::of(&[b"other"]);
        fs::write(c.path(&other), &good).unwrap();
        assert!(matches!(c.get(&other), Lookup::Corrupt(m) if m.contains("another key")));
        c.put(&k, b"object code").unwrap();
        assert_eq!(c.clear().unwrap(), 1);
        assert_eq!(c.stats(), Stats::default());
    }

    #[test]
    fn the_least_recently_used_entries_go_first() {
        let entry = entry_of_100_bytes();
        // Room for two entries, and 90 % of it still for two.
        let (_d, c) = cache(5 * entry / 2);
        let keys: Vec<Key> = (0..3u8).map(|i| Key::of(&[&[i]])).collect();
        let old = SystemTime::now() - std::time::Duration::from_secs(100);
        c.put(&keys[0], &[0; 100]).unwrap();
        c.put(&keys[1], &[1; 100]).unwrap();
        for (i, k) in keys[..2].iter().enumerate() {
            let f = fs::File::options().append(true).open(c.path(k)).unwrap();
            f.set_modified(old + std::time::Duration::from_secs(i as u64)).unwrap();
        }
        // A hit makes entry 0 the most recently used; storing a third evicts entry 1.
        assert!(matches!(c.get(&keys[0]), Lookup::Hit(_)));
        c.put(&keys[2], &[2; 100]).unwrap();
        assert!(matches!(c.get(&keys[0]), Lookup::Hit(_)));
        assert_eq!(c.get(&keys[1]), Lookup::Miss);
        assert!(matches!(c.get(&keys[2]), Lookup::Hit(_)));
    }

    #[test]
    fn a_store_trusts_the_recorded_usage_until_it_is_stale_or_past_the_bound() {
        let entry = entry_of_100_bytes();
        let (_d, c) = cache(3 * entry);
        let keys: Vec<Key> = (0..6u8).map(|i| Key::of(&[&[i]])).collect();
        for k in &keys[..3] {
            c.put(k, &[0; 100]).unwrap();
        }
        // The first store scanned and recorded the total; each store since added its entry to the
        // record.
        assert_eq!(fs::read_to_string(c.dir().join(USAGE_FILE)).unwrap(), format!("disk {}", 3 * entry));
        assert_eq!(c.stats().entries, 3);
        // Another process (a fresh handle) that trusts a recorded total too small: no scan, no
        // eviction, until its own count passes the bound.
        fs::write(c.dir().join(USAGE_FILE), "disk 0").unwrap();
        let other = DiskCache::new(c.dir().to_path_buf(), 3 * entry);
        other.put(&keys[3], &[0; 100]).unwrap();
        assert_eq!(other.stats().entries, 4, "the recorded total is trusted while fresh");
        assert_eq!(fs::read_to_string(c.dir().join(USAGE_FILE)).unwrap(), format!("disk {entry}"));
        // A stale record is not trusted: the next process scans and evicts down to 90 % of the
        // bound (2.7 entries: 2 entries).
        let f = fs::File::options().append(true).open(c.dir().join(USAGE_FILE)).unwrap();
        f.set_modified(SystemTime::now() - USAGE_TTL - std::time::Duration::from_secs(1)).unwrap();
        let third = DiskCache::new(c.dir().to_path_buf(), 3 * entry);
        third.put(&keys[4], &[0; 100]).unwrap();
        assert_eq!(third.stats().entries, 2);
        assert_eq!(fs::read_to_string(c.dir().join(USAGE_FILE)).unwrap(), format!("disk {}", 2 * entry));
        // A record of an older compiler (the entries' length, without the prefix) is not trusted
        // either: the store scans, and finds the cache within the bound (3 entries).
        fs::write(c.dir().join(USAGE_FILE), "0").unwrap();
        let fourth = DiskCache::new(c.dir().to_path_buf(), 3 * entry);
        fourth.put(&keys[5], &[0; 100]).unwrap();
        assert_eq!(fourth.stats().entries, 3);
        assert_eq!(fs::read_to_string(c.dir().join(USAGE_FILE)).unwrap(), format!("disk {}", 3 * entry));
        // `clear` removes the record with the entries.
        third.clear().unwrap();
        assert!(!c.dir().join(USAGE_FILE).exists());
    }
}
