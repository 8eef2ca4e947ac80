//! The distributed kernel launcher: every rank runs the same host program (SPMD, no master) and
//! launches every kernel through [`DistKernels`], which decides per launch who computes what and
//! moves the data that decision needs.
//!
//! * **Base arrays.** A base array of at least [`DistKernels::min_bytes`] bytes and rank 1 or more
//!   is split into blocks of rows along axis 0 ([`crate::blocks::block_rows`]); it is either
//!   *replicated* (every rank holds every element: a new array, an argument read from a file,
//!   after a gather) or *distributed* (each rank holds its own block; elsewhere its copy is stale).
//!   Every rank keeps the whole base's memory, so a kernel addresses its views unchanged; the pages
//!   of other ranks' blocks that are never touched are never faulted in. Smaller arrays and 0-d
//!   arrays are always replicated.
//! * **Owner computes.** A kernel whose rows are dimension 0 of its iteration space
//!   (`arrayc_runtime::launch::row_restrictable`) and whose outputs are large runs on every rank
//!   over the rows of its anchor that the rank owns (`launch_rows`), its outputs then distributed
//!   (rows computed off an output's blocks are delivered to their owner). Reductions over
//!   everything or along axis 0, and scatter-adds, leave partial results that are combined across
//!   ranks in rank order. Any other kernel (scatters that set, filters' compaction, scans along
//!   axis 0, small outputs) runs whole on every rank on gathered inputs, as the single process
//!   would ([`placement`] says which, and why).
//! * **Exchanges.** Before a launch, the elements each rank reads in other ranks' blocks
//!   ([`crate::blocks::transfers`]: exact runs, so a stencil moves its halo rows and nothing else)
//!   are copied with one non-blocking message per pair of ranks that share data, each way, skipped
//!   when no rank needs anything.
//! * **Partial results** combine in rank order (an all-gather of the partials, each rank combining
//!   them alike), so every rank sees a reduced value (`while delta > eps`) and the result is the
//!   same on every rank, run after run.
//! * **Host reads** of a distributed array (an element, a print, a result) bring the elements from
//!   their owner (a broadcast), or gather the whole array when several ranks own them.

use crate::blocks::{deliveries, transfers, BaseLayout, Runs, Transfer};
use arrayc_core::semantics::{reduce_combine, reduce_identity};
use arrayc_core::{ComputeFn, ReduceKind, ScatterKind, ValueId};
use arrayc_runtime::array::{Buffer, View};
use arrayc_runtime::launch::{row_restrictable, CpuKernels, KernelLayout, LaunchError, LaunchPlan};
use arrayc_runtime::value::{KernelLauncher, RtValue};
use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::{Arc, Weak};

/// The smallest base array (bytes) that is distributed by default; smaller ones are replicated
/// (DistNumPy's and the choice: below it, the messages cost more than the work saved).
pub const DEFAULT_MIN_BYTES: u64 = 64 << 10;

/// What a distributed run did on one rank, as `--time` reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DistStats {
    /// Bytes this rank sent to other ranks in exchanges before launches (halos, inputs of kernels
    /// that run whole).
    pub bytes_sent: u64,
    /// Exchanges (non-blocking messages between the ranks that share data) before launches.
    pub exchanges: u64,
    /// Launches that ran over this rank's rows only.
    pub owned_launches: u64,
    /// Launches that ran whole on every rank.
    pub whole_launches: u64,
    /// Host reads that gathered a whole distributed array, and bytes this rank sent for them.
    pub gathers: u64,
    pub gather_bytes: u64,
    /// Elements this rank received in exchanges that no `arr.exchange` announced (pass
    /// `distribute` did not foresee them; still correct, see [`DistKernels::exchange`]).
    pub unplanned: u64,
}

impl DistStats {
    /// The fields as words, in declaration order (for an all-gather).
    pub fn to_words(self) -> [u64; 7] {
        [
            self.bytes_sent,
            self.exchanges,
            self.owned_launches,
            self.whole_launches,
            self.gathers,
            self.gather_bytes,
            self.unplanned,
        ]
    }
    /// The inverse of [`to_words`](Self::to_words).
    pub fn from_words(w: &[u64]) -> DistStats {
        DistStats {
            bytes_sent: w[0],
            exchanges: w[1],
            owned_launches: w[2],
            whole_launches: w[3],
            gathers: w[4],
            gather_bytes: w[5],
            unplanned: w[6],
        }
    }
}

/// A large base array the launcher knows.
struct Entry {
    /// The buffer, to tell it from a later one at the same address.
    buf: Weak<Buffer>,
    layout: BaseLayout,
    /// Distributed (each rank holds its block) rather than replicated.
    distributed: bool,
    /// Launches that wrote it on each rank's rows so far.
    writes: u32,
}

/// Launches kernels of `cpu` on this rank's rows of every rank's block distribution (see the
/// module docs). All ranks must make the same calls in the same order (they run the same host
/// program on the same replicated scalars); every method that communicates is collective.
pub struct DistKernels<'a> {
    cpu: &'a CpuKernels,
    world: &'a SimpleCommunicator,
    /// Base arrays of at least this many bytes are distributed.
    pub min_bytes: u64,
    bases: RefCell<HashMap<usize, Entry>>,
    stats: Cell<DistStats>,
    /// Print every launch's decision and reads on rank 0 (`ARRAYC_DIST_TRACE=1`).
    trace: bool,
    /// An exchange no `arr.exchange` announced is an error (`ARRAYC_DIST_STRICT=1`; the tests).
    strict: bool,
    /// Views (by [`key`] of their base array and offset) that an `arr.exchange` announced for the
    /// next launch reading them.
    announced: RefCell<Vec<(usize, i64)>>,
    /// Base arrays (by [`key`]) whose views hold partial results until their `arr.allreduce`.
    /// (Announcements stay until a launch writes the base array: a block that the back end runs
    /// as several kernels announces its exchanges once, before the first.)
    pending: RefCell<Vec<usize>>,
}

/// How a launch on its ranks' own rows divides the work: rows `[lo, hi)` of dimension 0 of the
/// iteration space per rank, and the copies of outputs computed off their owners' blocks.
struct Split {
    rows: Vec<(i64, i64)>,
    deliver: Vec<(View, Vec<Transfer>)>,
    /// Replicated outputs that take the launch's rows as their blocks (`BaseLayout::cuts`).
    recut: Vec<(View, Vec<i64>)>,
}

/// The view `args` passes for parameter `v` of `plan`, if `v` is a parameter and a view.
fn param_view<'v>(plan: &LaunchPlan, args: &'v [RtValue], v: ValueId) -> Option<&'v View> {
    plan.params.iter().position(|&q| q == v).and_then(|i| args[i].view())
}

/// The targets of the scatters of a kernel of layout `layout` (outputs of their own shape).
fn scatter_targets(layout: &KernelLayout) -> impl Iterator<Item = ValueId> + '_ {
    layout.ops.iter().filter(|(f, ..)| f.own_shape_output()).map(|(_, out, _)| *out)
}

/// The elements a list of transfers moves.
fn elements(transfers: &[Transfer]) -> i64 {
    transfers.iter().map(|t| t.range.1 - t.range.0).sum()
}

fn key(v: &View) -> usize {
    Arc::as_ptr(&v.base) as usize
}

fn to_count(bytes: usize, what: &str) -> Result<Count, LaunchError> {
    Count::try_from(bytes).map_err(|_| {
        LaunchError::Invalid(format!(
            "{what} of {bytes} bytes between two ranks exceeds MPI's 2 GiB per message; run on more ranks"
        ))
    })
}

impl<'a> DistKernels<'a> {
    /// A launcher of `cpu`'s kernels over the ranks of `world`, distributing base arrays of at
    /// least `min_bytes` bytes.
    pub fn new(cpu: &'a CpuKernels, world: &'a SimpleCommunicator, min_bytes: u64) -> Self {
        let flag = |name: &str| std::env::var_os(name).is_some_and(|v| v == "1");
        DistKernels {
            cpu,
            world,
            min_bytes,
            bases: RefCell::default(),
            stats: Cell::default(),
            trace: flag("ARRAYC_DIST_TRACE"),
            strict: flag("ARRAYC_DIST_STRICT"),
            announced: RefCell::default(),
            pending: RefCell::default(),
        }
    }

    /// This rank's counts so far.
    pub fn stats(&self) -> DistStats {
        self.stats.get()
    }

    fn bump(&self, f: impl FnOnce(&mut DistStats)) {
        let mut s = self.stats.get();
        f(&mut s);
        self.stats.set(s);
    }

    fn p(&self) -> usize {
        self.world.size() as usize
    }

    fn me(&self) -> usize {
        self.world.rank() as usize
    }

    /// Records `v` as a replicated base array if it is a whole base of at least `min_bytes` bytes
    /// and rank 1 or more (a new array, an argument); else forgets any record at its address.
    pub fn register(&self, v: &View) {
        let elems = v.len().max(0) as u64;
        let whole = v.offset == 0 && v.rank() > 0 && v.is_contiguous();
        let bytes = elems * v.dtype.size_bytes() as u64;
        let mut bases = self.bases.borrow_mut();
        // Forget dead arrays now and then (a loop may make a temporary every iteration).
        if bases.len() >= 256 && bases.len().is_power_of_two() {
            bases.retain(|_, e| e.buf.strong_count() > 0);
        }
        if whole && bytes == v.base.len_bytes() as u64 && crate::blocks::distributable(&v.shape, bytes, self.min_bytes)
        {
            let layout = BaseLayout::even(v.shape[0], v.shape[1..].iter().product());
            bases.insert(key(v), Entry { buf: Arc::downgrade(&v.base), layout, distributed: false, writes: 0 });
        } else {
            bases.remove(&key(v));
        }
    }

    /// [`register`](Self::register)s `v`, an argument read with [`read_own_blocks`] (this rank's
    /// block only), as distributed.
    pub fn register_read(&self, v: &View) {
        self.register(v);
        self.set_distributed(v, true);
    }

    /// The layout of `v`'s base and whether it is distributed, if it is a large base array the
    /// launcher knows.
    fn entry(&self, v: &View) -> Option<(BaseLayout, bool)> {
        let mut bases = self.bases.borrow_mut();
        let e = bases.get(&key(v))?;
        if e.buf.upgrade().is_some_and(|b| Arc::ptr_eq(&b, &v.base)) {
            Some((e.layout.clone(), e.distributed))
        } else {
            bases.remove(&key(v));
            None
        }
    }

    fn set_distributed(&self, v: &View, d: bool) {
        if let Some(e) = self.bases.borrow_mut().get_mut(&key(v)) {
            e.distributed = d;
            e.writes += u32::from(d);
        }
    }

    /// Whether `v`'s base has been written on each rank's rows at most once (an input computed
    /// once, then only read).
    fn written_once(&self, v: &View) -> bool {
        self.bases.borrow().get(&key(v)).is_some_and(|e| e.writes <= 1)
    }

    /// Decides how kernel `plan` runs on `args`: each rank over the rows of the anchor (its first
    /// output) that it owns, with the copies that then bring the other outputs' rows to their
    /// owners, or whole everywhere (`None`; see the module docs). The same on every rank (it reads
    /// only the replicated host state).
    fn split(&self, plan: &LaunchPlan, args: &[RtValue]) -> Result<Split, &'static str> {
        let layout = &plan.layout;
        let p = self.p();
        let view = |v: ValueId| param_view(plan, args, v);
        if p == 1 {
            return Err("one rank");
        }
        if let Placement::Whole(why) = placement(layout) {
            return Err(why);
        }
        let space_view = layout.space.and_then(view).ok_or("no array to iterate over")?;
        let space = space_view.shape.clone();
        if space.is_empty() {
            return Err("a 0-d iteration space");
        }
        let mut outs: Vec<&View> = vec![];
        // Reductions combined across ranks afterwards: their outputs are not distributed.
        let combined = combined(layout);
        let reduced = layout.reduce.iter().chain(&layout.extra).map(|r| r.out).filter(|_| !combined);
        let partial: Vec<ValueId> = partial_outputs(layout).into_iter().map(|(_, v)| v).collect();
        // A scatter-add adds to its target's values, which rank 0 must hold whole (`launch`
        // gathers a distributed one first).
        if partial.iter().filter_map(|&v| view(v)).any(|v| self.entry(v).is_some_and(|(_, d)| d)) {
            return Err("the target of a scatter-add is distributed");
        }
        let written = layout.ops.iter().map(|(_, out, _)| *out).filter(|o| !partial.contains(o));
        for v in written.chain(reduced).filter_map(view) {
            if v.rank() > 0
                && !outs.iter().any(|o| Arc::ptr_eq(&o.base, &v.base) && o.offset == v.offset && o.shape == v.shape)
            {
                outs.push(v);
            }
        }
        // The view whose rows decide who computes what, the first of: an output already
        // distributed whose axis 0 steps over whole rows of its base; an input of the space's
        // shape that is distributed and centred in its base's rows (`grid[1:-1, 1:-1]` among a
        // stencil's views: pass `distribute` takes views at the same place in bases of as many
        // rows to be read on the rows they are computed on); such an input stepping over whole
        // rows; any distributed output; the first output (the reduced input when everything is
        // reduced). A row of a two-row array (`d[0]`) is no anchor while an input of whole rows
        // is (its owner alone would compute it), nor is a transposed input (`s.T`).
        let distributed = |v: &&&View| self.entry(v).is_some_and(|(_, d)| d) && !repeats_rows(v);
        let rows_of = |v: &&&View| distributed(v) && self.row_margin(v).is_some();
        let centred = |v: &&&View| distributed(v) && self.row_margin(v) == Some(0);
        let read = layout.ops.iter().filter(|(f, ..)| f.own_shape_input().is_none()).flat_map(|(_, _, ins)| ins);
        let inputs: Vec<&View> = read
            .chain(layout.reduce.iter().map(|r| &r.input))
            .filter_map(|&v| view(v))
            .filter(|v| v.shape == space && !repeats_rows(v))
            .collect();
        let first = match outs.first() {
            Some(o) if !combined => *o,
            _ => space_view,
        };
        let anchor = outs
            .iter()
            .find(rows_of)
            .or_else(|| inputs.iter().find(centred))
            .or_else(|| inputs.iter().find(rows_of))
            .or_else(|| outs.iter().find(distributed))
            .copied()
            .unwrap_or(first);
        let (base, _) = self.entry(anchor).ok_or("its rows follow an array too small to distribute")?;
        if anchor.shape[0] != space[0] {
            return Err("its anchor's rows are not the iteration space's");
        }
        let rows: Vec<(i64, i64)> = (0..p)
            .map(|r| crate::blocks::owned_rows(anchor.offset, anchor.shape[0], anchor.strides[0], &base, p, r))
            .collect::<Option<_>>()
            .ok_or("its anchor repeats a row (a broadcast)")?;
        // Rows in rank order covering them all: a replicated output of whole rows takes them as
        // its blocks.
        let ordered = rows.first().is_some_and(|r| r.0 == 0)
            && rows.windows(2).all(|w| w[0].1 == w[1].0)
            && rows.last().is_some_and(|r| r.1 == space[0]);
        // Every output must be a large array; the rows computed off its owner's block go there.
        let (mut deliver, mut recut) = (vec![], vec![]);
        for o in outs {
            let (ob, dist) = self.entry(o).ok_or("an output is too small to distribute")?;
            let runs = Runs::of(o.offset, &o.shape, &o.strides, None);
            let row_aligned = runs.is_some_and(|r| {
                r.exact && r.count == ob.rows && r.step == ob.row_len && r.start + r.len <= ob.row_len
            });
            if ordered && !dist && row_aligned {
                let cuts: Vec<i64> = std::iter::once(0).chain(rows.iter().map(|r| r.1)).collect();
                recut.push((o.clone(), cuts));
                continue;
            }
            let t = deliveries(&ob, p, (o.offset, &o.shape, &o.strides), &rows);
            if !t.is_empty() {
                deliver.push((o.clone(), t));
            }
        }
        Ok(Split { rows, deliver, recut })
    }

    /// The copies that bring every rank the elements of distributed base arrays that it reads in
    /// the launch of `plan` on `args` (over `rows` per rank, or everything) and does not own.
    fn reads(&self, plan: &LaunchPlan, args: &[RtValue], rows: Option<&[(i64, i64)]>) -> Vec<(View, Vec<Transfer>)> {
        let layout = &plan.layout;
        let p = self.p();
        let pos = |v: &ValueId| plan.params.iter().position(|q| q == v);
        let space_rank = layout.space.and_then(|s| param_view(plan, args, s)).map_or(0, View::rank);
        let gathered: Vec<usize> =
            layout.ops.iter().filter_map(|(f, _, ins)| f.own_shape_input().and_then(|k| pos(&ins[k]))).collect();
        let read: Vec<usize> = layout
            .ops
            .iter()
            .flat_map(|(_, _, ins)| ins.iter())
            .chain(layout.reduce.iter().chain(&layout.extra).map(|r| &r.input))
            .filter_map(pos)
            .collect();
        // The distributed bases read, in order of first use, with every rank's runs of each.
        let mut bases: Vec<(View, BaseLayout, Vec<Vec<Runs>>)> = vec![];
        for (i, a) in args.iter().enumerate() {
            let Some(v) = a.view().filter(|_| read.contains(&i)) else { continue };
            let Some((bl, true)) = self.entry(v) else { continue };
            let sliced = v.rank() == space_rank && !gathered.contains(&i);
            let k = match bases.iter().position(|(b, ..)| Arc::ptr_eq(&b.base, &v.base)) {
                Some(k) => k,
                None => {
                    bases.push((v.clone(), bl, vec![vec![]; p]));
                    bases.len() - 1
                }
            };
            for (q, need) in bases[k].2.iter_mut().enumerate() {
                let rr = rows.filter(|_| sliced).map(|r| r[q]);
                need.extend(Runs::of(v.offset, &v.shape, &v.strides, rr));
            }
        }
        bases.into_iter().map(|(v, bl, needs)| (v, transfers(&bl, p, &needs))).collect()
    }

    /// Makes the copies `moves` (per base array, given by one of its views: elements of it from
    /// rank to rank): one non-blocking message to each rank it sends to and from each rank it
    /// receives from (`MPI_Isend`/`MPI_Irecv`, then `MPI_Waitall`), skipped when there are none on
    /// any rank; returns the bytes this rank sent. Errors: more than 2 GiB between two ranks.
    fn move_elements(&self, moves: &[(View, Vec<Transfer>)]) -> Result<u64, LaunchError> {
        if moves.iter().all(|(_, t)| t.is_empty()) {
            return Ok(0);
        }
        let (p, me) = (self.p(), self.me());
        // This rank's transfers only: what it sends and receives.
        let all: Vec<(&View, &Transfer)> = moves
            .iter()
            .flat_map(|(v, ts)| ts.iter().map(move |t| (v, t)))
            .filter(|(_, t)| t.from == me || t.to == me)
            .collect();
        let bytes_of = |v: &View, t: &Transfer| (t.range.1 - t.range.0) as usize * v.dtype.size_bytes();
        // The address of a transfer's first element; `wrapping_add` keeps this safe code, and every
        // dereference below says why the range lies in a live base array.
        let ptr_of = |v: &View, t: &Transfer| v.base.as_ptr().wrapping_add(t.range.0 as usize * v.dtype.size_bytes());
        // One message per pair of ranks that share data, each way, all in flight at once
        // (non-blocking sends and receives, then one wait for all).
        let mut sends: Vec<(usize, Vec<u8>)> = vec![];
        let mut recvs: Vec<(usize, Vec<u8>)> = vec![];
        for q in (0..p).filter(|&q| q != me) {
            let mut buf = vec![];
            for (v, t) in all.iter().filter(|(_, t)| t.from == me && t.to == q) {
                // SAFETY: the transfer's range lies in its base array (a block of it: `transfers`,
                // `deliveries`), which `moves` keeps alive; `ptr_of` points at its first byte.
                buf.extend_from_slice(unsafe { std::slice::from_raw_parts(ptr_of(v, t), bytes_of(v, t)) });
            }
            if !buf.is_empty() {
                to_count(buf.len(), "an exchange")?;
                sends.push((q, buf));
            }
            let n: usize = all.iter().filter(|(_, t)| t.from == q && t.to == me).map(|(v, t)| bytes_of(v, t)).sum();
            if n > 0 {
                to_count(n, "an exchange")?;
                recvs.push((q, vec![0u8; n]));
            }
        }
        mpi::request::multiple_scope(sends.len() + recvs.len(), |scope, requests| {
            for (q, buf) in &sends {
                requests.add(self.world.process_at_rank(*q as i32).immediate_send(scope, &buf[..]));
            }
            for (q, buf) in &mut recvs {
                requests.add(self.world.process_at_rank(*q as i32).immediate_receive_into(scope, &mut buf[..]));
            }
            requests.wait_all(&mut vec![]);
        });
        for (q, buf) in &recvs {
            let mut at = 0;
            for (v, t) in all.iter().filter(|(_, t)| t.from == *q && t.to == me) {
                let n = bytes_of(v, t);
                // SAFETY: as above; the host copies between launches, when no kernel runs, and
                // `buf` holds the `n` bytes at `at` (its size is these transfers').
                unsafe { std::ptr::copy_nonoverlapping(buf[at..at + n].as_ptr(), ptr_of(v, t), n) };
                at += n;
            }
        }
        let sent: usize = sends.iter().map(|(_, b)| b.len()).sum();
        self.bump(|s| s.exchanges += 1);
        Ok(sent as u64)
    }

    /// Combines every rank's partial results in `o` with `kind`, each element over the ranks in
    /// rank order, on every rank (one all-gather).
    fn combine(&self, o: &View, kind: ReduceKind) -> Result<(), LaunchError> {
        let p = self.p();
        let es = o.dtype.size_bytes();
        let n = o.len().max(0) as usize;
        let mut mine = Vec::with_capacity((n * es).max(1));
        o.for_each_offset(|off| {
            // SAFETY: every element of a validated view lies in its live base array.
            mine.extend_from_slice(unsafe { std::slice::from_raw_parts(o.base.as_ptr().add(off as usize * es), es) })
        });
        to_count(mine.len(), "a reduction's partial results")?;
        let mut all = vec![0u8; (mine.len() * p).max(1)];
        self.world.all_gather_into(&mine[..], &mut all[..mine.len() * p]);
        let parts = View::uninitialised(o.dtype, &[p as i64, n as i64])
            .map_err(|e| LaunchError::Invalid(format!("partial results of a reduction: {e}")))?;
        // SAFETY: `parts` holds `p * n` elements of `es` bytes, as `all` does.
        unsafe { std::ptr::copy_nonoverlapping(all.as_ptr(), parts.base.as_ptr(), mine.len() * p) };
        let mut j = 0;
        o.for_each_offset(|off| {
            let acc = (1..p as i64)
                .fold(parts.read_at(j), |acc, k| reduce_combine(kind, acc, parts.read_at(k * n as i64 + j)));
            o.write_at(off, acc);
            j += 1;
        });
        Ok(())
    }
}

/// Where a kernel runs in a distributed run, as far as its block structure decides (which rows and
/// which exchanges are decided at each launch, from its views).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// On each rank's rows of its anchor (an output, or the reduced input).
    OwnRows,
    /// On each rank's rows of its reduced input (or of its iteration space), the partial results
    /// of its reductions (over everything, or along axis 0) and of its scatter-adds combined across
    /// ranks in rank order.
    OwnRowsCombined,
    /// Whole on every rank, on gathered inputs, for the reason given.
    Whole(&'static str),
}

/// The [`Placement`] of a kernel of layout `layout`.
pub fn placement(layout: &KernelLayout) -> Placement {
    let scatters: Vec<&(ComputeFn, ValueId, Vec<ValueId>)> =
        layout.ops.iter().filter(|(f, ..)| f.own_shape_output()).collect();
    if scatters.iter().any(|(f, ..)| !matches!(f, ComputeFn::Scatter(ScatterKind::Add, _))) {
        return Placement::Whole("a scatter that sets (`x[idx] = v`, a filter's compaction) writes anywhere");
    }
    let other_use =
        |t: &ValueId| layout.ops.iter().any(|(f, out, ins)| ins.contains(t) || (out == t && !f.own_shape_output()));
    if scatters.iter().any(|(_, t, _)| other_use(t)) {
        return Placement::Whole("another op of the block reads or writes the target of its scatter-add");
    }
    if layout.space.is_none() {
        return Placement::Whole("no array to iterate over");
    }
    if !row_restrictable(layout) {
        return Placement::Whole(match layout.reduce {
            Some(_) => "a reduction along axis 0 that cannot split its axis",
            None => "a scan along axis 0",
        });
    }
    if combined(layout) || !scatters.is_empty() {
        Placement::OwnRowsCombined
    } else {
        Placement::OwnRows
    }
}

/// The outputs of a kernel of layout `layout` that hold partial results after a launch on each
/// rank's rows, with how to combine them: its reductions when [`combined`], and the targets of its
/// scatter-adds (`add.at`, `bincount`: each rank adds its rows' values, the sums add up).
fn partial_outputs(layout: &KernelLayout) -> Vec<(ReduceKind, ValueId)> {
    let reductions = layout.reduce.iter().chain(&layout.extra).filter(|_| combined(layout)).map(|r| (r.kind, r.out));
    let scatters = scatter_targets(layout).map(|t| (ReduceKind::Sum, t));
    reductions.chain(scatters).collect()
}

/// Whether `v` repeats its rows (a broadcast along dimension 0: stride 0 with more than one row),
/// so that its rows cannot decide who computes what.
fn repeats_rows(v: &View) -> bool {
    v.shape.first().is_some_and(|&n| n > 1) && v.strides.first() == Some(&0)
}

/// Whether the reductions of a kernel of layout `layout` run on each rank's rows of their input
/// and leave partial results to combine across ranks: over everything, or along axis 0.
fn combined(layout: &KernelLayout) -> bool {
    layout.reduces_all || layout.reduce.is_some_and(|r| r.axis == Some(0))
}

impl KernelLauncher for DistKernels<'_> {
    /// Runs kernel `kernel` (see the module docs): decides the rows, makes the exchanges (those
    /// announced by `arr.exchange`, and any other it finds: see [`exchange`](Self::exchange)),
    /// launches, and leaves partial results for their `arr.allreduce`. Errors: those of the launch;
    /// a fault on one rank is that rank's error (the driver then stops every rank); a read of
    /// partial results before their `arr.allreduce` (a compiler bug).
    fn launch(&self, kernel: &str, args: &[RtValue]) -> Result<(), LaunchError> {
        let (_, plan) = self.cpu.get(kernel).ok_or_else(|| format!("no compiled kernel @{kernel}"))?;
        for v in args.iter().filter_map(RtValue::view) {
            self.not_pending(v, kernel)?;
        }
        if self.p() > 1 && placement(&plan.layout) == Placement::OwnRowsCombined {
            // Scatter-adds add to their targets' values: rank 0 must hold them whole.
            for o in scatter_targets(&plan.layout).filter_map(|t| param_view(plan, args, t)) {
                self.replicate(o)?;
            }
        }
        let split = self.split(plan, args);
        let trace = self.trace && self.me() == 0;
        if trace {
            let how = match &split {
                Ok(s) => format!("rows {:?}", s.rows),
                Err(why) => format!("whole on every rank: {why}"),
            };
            eprintln!("distributed: @{kernel}: {how}");
        }
        let split = split.ok();
        for (v, cuts) in split.iter().flat_map(|s| &s.recut) {
            if let Some(e) = self.bases.borrow_mut().get_mut(&key(v)) {
                e.layout.cuts = Some(cuts.clone().into());
            }
        }
        let rows = split.as_ref().map(|s| &s.rows[..]);
        let mut reads = self.reads(plan, args, rows);
        // An array computed once that the ranks read half of or more from each other is gathered
        // whole instead: about as many bytes now, and none for its later reads (black_scholes'
        // prices, read every step). An array written again and again keeps its exchanges.
        for (v, t) in &mut reads {
            if self.written_once(v) && self.entry(v).is_some_and(|(b, _)| 2 * elements(t) >= b.rows * b.row_len) {
                self.replicate(v)?;
                t.clear();
            }
        }
        // Exchanges of a launch on own rows are announced by pass `distribute` (`arr.exchange`);
        // a whole launch gathers what it reads.
        let announced: Vec<(usize, i64)> = self.announced.borrow().clone();
        for (v, t) in reads.iter().filter(|(_, t)| !t.is_empty()) {
            let planned = split.is_none() || announced.iter().any(|(k, _)| *k == key(v));
            let (n, rows) = (elements(t), self.entry(v).map_or(0, |(b, _)| b.rows));
            if !planned {
                self.bump(|s| s.unplanned += n as u64);
                if self.strict {
                    return Err(LaunchError::Invalid(format!(
                        "@{kernel} reads {n} elements of a base array of {rows} rows from other ranks without an \
                         arr.exchange (ARRAYC_DIST_STRICT=1; pass `distribute` missed it)"
                    )));
                }
            }
            if trace {
                let how = if planned { "" } else { " (unplanned: no arr.exchange)" };
                eprintln!("distributed:   exchange: {n} elements of a base array of {rows} rows (all ranks){how}");
            }
        }
        let sent = self.move_elements(&reads)?;
        self.bump(|s| s.bytes_sent += sent);
        let partial = partial_outputs(&plan.layout);
        if split.is_some() && self.me() != 0 {
            // Ranks other than 0 add their rows' values to zeros (rank 0 to the target's values).
            for o in scatter_targets(&plan.layout).filter_map(|t| param_view(plan, args, t)) {
                o.for_each_offset(|off| o.write_at(off, reduce_identity(ReduceKind::Sum, o.dtype)));
            }
        }
        self.cpu.launch_rows(kernel, args, rows.map(|r| r[self.me()]))?;
        let Some(split) = split else {
            self.bump(|s| s.whole_launches += 1);
            return Ok(());
        };
        let sent = self.move_elements(&split.deliver)?;
        self.bump(|s| {
            s.owned_launches += 1;
            s.bytes_sent += sent;
        });
        let layout = &plan.layout;
        let reduced = layout.reduce.iter().chain(&layout.extra).map(|r| r.out);
        // Each base array written counts one write, however many ops of the block write it.
        let mut written: Vec<&View> = vec![];
        let outs = layout.ops.iter().map(|(_, out, _)| *out).chain(reduced);
        for v in outs.filter(|out| !partial.iter().any(|(_, p)| p == out)).filter_map(|o| param_view(plan, args, o)) {
            if !written.iter().any(|w| Arc::ptr_eq(&w.base, &v.base)) {
                written.push(v);
                self.set_distributed(v, true);
            }
        }
        // What this launch wrote is new: its next reads from other ranks need new announcements.
        let wrote: Vec<usize> =
            layout.ops.iter().filter_map(|(_, out, _)| param_view(plan, args, *out)).map(key).collect();
        self.announced.borrow_mut().retain(|(k, _)| !wrote.contains(k));
        // Partial results wait for their `arr.allreduce`.
        for o in partial.iter().filter_map(|(_, o)| param_view(plan, args, *o)) {
            self.pending.borrow_mut().push(key(o));
        }
        Ok(())
    }

    /// `arr.exchange`: the next launch that reads `v`'s base array may read elements of it from
    /// other ranks. All of one launch's exchanges go in one message per pair of ranks that share
    /// data, at that launch. A launch that reads other ranks' elements without an announcement
    /// still fetches them and counts them ([`DistStats::unplanned`]; an error under
    /// `ARRAYC_DIST_STRICT=1`).
    fn exchange(&self, v: &View) -> Result<(), LaunchError> {
        let mut announced = self.announced.borrow_mut();
        // Once per view: a host loop announces the same exchanges every iteration.
        if !announced.contains(&(key(v), v.offset)) {
            announced.push((key(v), v.offset));
        }
        Ok(())
    }

    /// `arr.allreduce`: combines the ranks' partial results in `v` with `kind`, in rank order, if
    /// the launch that wrote them ran on each rank's rows (a launch that ran whole left whole
    /// results: nothing to do).
    fn allreduce(&self, v: &View, kind: ReduceKind) -> Result<(), LaunchError> {
        let at = self.pending.borrow().iter().position(|&k| k == key(v));
        if let Some(at) = at {
            self.pending.borrow_mut().remove(at);
            self.combine(v, kind)?;
        }
        Ok(())
    }

    /// Every rank reads host values on the host: distributed arrays take the messages of
    /// [`host_read`](Self::host_read).
    fn device_memory(&self) -> bool {
        true
    }

    /// Brings every rank the elements of `v`: a broadcast from their owner when one rank owns them
    /// all, else a gather of the whole base array (which is then replicated).
    fn host_read(&self, v: &View) -> Result<(), LaunchError> {
        self.not_pending(v, "the host")?;
        let Some((bl, true)) = self.entry(v) else { return Ok(()) };
        let Some(runs) = Runs::of(v.offset, &v.shape, &v.strides, None) else { return Ok(()) };
        let p = self.p();
        let es = v.dtype.size_bytes();
        let (lo, hi) = (runs.start, runs.end());
        let owner = bl.owner(p, lo);
        let base = v.base.as_ptr();
        if hi <= bl.block(p, owner).1 {
            let n = (hi - lo) as usize * es;
            to_count(n, "a broadcast")?;
            // SAFETY: the range lies in the base; the host reads between launches.
            let buf = unsafe { std::slice::from_raw_parts_mut(base.add(lo as usize * es), n) };
            self.world.process_at_rank(owner as i32).broadcast_into(buf);
            return Ok(());
        }
        self.replicate(v)
    }

    /// The host writes the same values on every rank: nothing to move.
    fn host_write(&self, _v: &View) -> Result<(), LaunchError> {
        Ok(())
    }

    fn fresh(&self, v: &View) {
        self.register(v);
    }

    fn traffic(&self) -> Option<(u64, u64)> {
        self.cpu.traffic()
    }
}

impl DistKernels<'_> {
    /// Where a view of a distributed or replicated large base array lies among its base's rows:
    /// [`arrayc_core::shape::row_margin`], as pass `distribute` computes it; `None` for arrays
    /// the launcher does not know and where axis 0 does not step over whole rows.
    fn row_margin(&self, v: &View) -> Option<i64> {
        let (bl, _) = self.entry(v)?;
        arrayc_core::shape::row_margin(v.offset, *v.strides.first()?, *v.shape.first()?, bl.row_len, bl.rows)
    }

    /// An error if `v`'s base array holds partial results that no `arr.allreduce` has combined
    /// yet: `reader` would read them (a compiler bug: pass `distribute` puts the all-reduce right
    /// after the computation).
    fn not_pending(&self, v: &View, reader: &str) -> Result<(), LaunchError> {
        if self.pending.borrow().contains(&key(v)) {
            return Err(LaunchError::Invalid(format!(
                "internal error: {reader} reads partial results of a reduction before their arr.allreduce"
            )));
        }
        Ok(())
    }

    /// Makes `v`'s base array replicated if it is distributed: an all-gather of every rank's block.
    /// Errors: a block of more than 2 GiB.
    fn replicate(&self, v: &View) -> Result<(), LaunchError> {
        let Some((bl, true)) = self.entry(v) else { return Ok(()) };
        let (p, me) = (self.p(), self.me());
        let (counts, displs) = block_partition(&bl, p, v.dtype.size_bytes(), "a gather")?;
        let mine = own_block_copy(v, &bl, p, me);
        let total = (bl.rows * bl.row_len) as usize * v.dtype.size_bytes();
        // SAFETY: the whole base (its registered size), written only by the gather.
        let whole = unsafe { std::slice::from_raw_parts_mut(v.base.as_ptr(), total) };
        let mut rp = PartitionMut::new(whole, &counts[..], &displs[..]);
        self.world.all_gather_varcount_into(&mine[..], &mut rp);
        self.set_distributed(v, false);
        self.bump(|s| {
            s.gathers += 1;
            s.gather_bytes += mine.len() as u64;
        });
        Ok(())
    }
}

impl DistKernels<'_> {
    /// Brings rank 0 every element of `v` (a result of the program, which only rank 0 prints and
    /// writes): a gather to rank 0 of every rank's block of its base array (`MPI_Gatherv`), not an
    /// all-gather, so the other ranks receive nothing. Collective; every rank passes the same
    /// results in the same order. Afterwards the other ranks' copies are stale: call it only once
    /// the program has ended. Errors: partial results not combined yet (a compiler bug); a block of
    /// more than 2 GiB.
    pub fn gather_result(&self, v: &View) -> Result<(), LaunchError> {
        self.not_pending(v, "a result")?;
        let Some((bl, true)) = self.entry(v) else { return Ok(()) };
        let (p, me) = (self.p(), self.me());
        let es = v.dtype.size_bytes();
        let root = self.world.process_at_rank(0);
        if me == 0 {
            let (counts, displs) = block_partition(&bl, p, es, "a result's gather")?;
            // Rank 0's own block is copied onto itself by the gather: give it a copy to send.
            let mine = own_block_copy(v, &bl, p, me);
            let total = (bl.rows * bl.row_len) as usize * es;
            // SAFETY: the whole base (its registered size), written only by the gather.
            let whole = unsafe { std::slice::from_raw_parts_mut(v.base.as_ptr(), total) };
            let mut rp = PartitionMut::new(whole, &counts[..], &displs[..]);
            root.gather_varcount_into_root(&mine[..], &mut rp);
        } else {
            let (a, b) = bl.block(p, me);
            // SAFETY: rank `me`'s block of the live base array; nothing writes it during the
            // gather (rank 0 receives the other ranks' blocks only).
            let mine =
                unsafe { std::slice::from_raw_parts(v.base.as_ptr().add(a as usize * es), (b - a) as usize * es) };
            to_count(mine.len(), "a result's gather")?;
            root.gather_varcount_into(mine);
            self.bump(|s| {
                s.gathers += 1;
                s.gather_bytes += mine.len() as u64;
            });
        }
        self.set_distributed(v, false);
        Ok(())
    }
}

/// The byte count and byte offset of each rank's block of a base array of layout `bl` and `es`
/// bytes per element, in rank order: the partition of a gather of the whole base (`what` names it
/// in the error). Errors: a block of more than 2 GiB.
fn block_partition(bl: &BaseLayout, p: usize, es: usize, what: &str) -> Result<(Vec<Count>, Vec<Count>), LaunchError> {
    let mut counts = Vec::with_capacity(p);
    let mut displs = Vec::with_capacity(p);
    for r in 0..p {
        let (a, b) = bl.block(p, r);
        counts.push(to_count((b - a) as usize * es, what)?);
        displs.push(to_count(a as usize * es, what)?);
    }
    Ok((counts, displs))
}

/// A copy of rank `me`'s block of `v`'s base array (layout `bl`), to send while the base itself
/// receives; never with a dangling pointer, even when empty (see `move_elements`).
fn own_block_copy(v: &View, bl: &BaseLayout, p: usize, me: usize) -> Vec<u8> {
    let es = v.dtype.size_bytes();
    let (a, b) = bl.block(p, me);
    // SAFETY: rank `me`'s block of the live base array, read before the base is overwritten.
    let mine = unsafe { std::slice::from_raw_parts(v.base.as_ptr().add(a as usize * es), (b - a) as usize * es) };
    let mut copy = Vec::with_capacity(mine.len().max(1));
    copy.extend_from_slice(mine);
    copy
}

/// Makes every `.npy` argument that a distributed run would split (at least `min_bytes` bytes, rank
/// 1 or more) be read only where rank `me` of `p` owns it (offset reads: each rank reads its own
/// block of rows, not the whole file); [`DistKernels::register_read`] then records it as
/// distributed.
pub fn read_own_blocks(p: usize, me: usize, min_bytes: u64) {
    arrayc_runtime::npy::read_only_part(Box::new(move |dtype, shape| {
        let elems: i64 = shape.iter().product();
        let bytes = elems as u64 * dtype.size_bytes() as u64;
        if p < 2 || !crate::blocks::distributable(shape, bytes, min_bytes) {
            return None;
        }
        Some(BaseLayout::even(shape[0], shape[1..].iter().product()).block(p, me))
    }));
}
