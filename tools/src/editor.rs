//! The compiler behind `arrayc lsp`: the language server (`arrayc-lsp`, which links no MLIR) gets the
//! lowering's diagnostics and the fusion pass's partitions from here, computed exactly as
//! `arrayc check` and `arrayc fuse-report` compute them.

use crate::pipeline::{self, PassOptions};
use crate::{choose_entry, given_arguments, specialization};
use arrayc_grammar::{Checked, Diagnostic};
use arrayc_lsp::{FusionBlock, FusionRegion, FusionSettings};

use arrayc_passes::lower_ast;
use arrayc_passes::wsp::{Algorithm, Budget, MODEL_NAMES};
use arrayc_passes::wsp_fusion::{FusionOptions, RegionReport};

// The server's default budget is the driver's.
const _: () = assert!(arrayc_lsp::DEFAULT_BUDGET_MS == Budget::DEFAULT_MS);

/// [`arrayc_lsp::Compiler`] on the passes of this workspace.
pub struct Driver;

/// The longest document the fusion hints are computed for. The fusion pass is not linear in a
/// region's length (thousands of gathers take minutes and gigabytes), and the language server runs
/// it on every version; beyond this the hints are off, and the server logs why.
pub const MAX_FUSION_SOURCE_BYTES: usize = 1 << 20;

impl arrayc_lsp::Compiler for Driver {
    fn lowering_diagnostics(&self, checked: &Checked, source: &str, file: &str) -> Vec<Diagnostic> {
        lower_ast::lower_program(checked, source, file).err().unwrap_or_default()
    }

    fn fusion(
        &self,
        checked: &Checked,
        source: &str,
        file: &str,
        settings: &FusionSettings,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Vec<FusionRegion>, String> {
        let algorithm = Algorithm::by_name(&settings.algorithm).ok_or_else(|| {
            let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
            format!("unknown fusion algorithm `{}`; algorithms: {}", settings.algorithm, names.join(", "))
        })?;
        if !MODEL_NAMES.contains(&settings.cost_model.as_str()) {
            return Err(format!(
                "unknown cost model `{}`; cost models: {}",
                settings.cost_model,
                MODEL_NAMES.join(", ")
            ));
        }
        if source.len() > MAX_FUSION_SOURCE_BYTES {
            return Err(format!(
                "no fusion hints for a document of {} bytes (more than {MAX_FUSION_SOURCE_BYTES}): the fusion pass would take too long",
                source.len()
            ));
        }
        let mut m = lower_ast::lower_program(checked, source, file).map_err(|_| "the lowering failed".to_string())?;
        let entry = choose_entry(&m, None).map_err(|e| e.0)?;
        if cancelled() {
            return Ok(vec![]);
        }
        // The entry's defaults, as `arrayc fuse-report` without `--arg` uses them.
        let given = given_arguments(&m, &entry, &[]).map_err(|e| e.0)?;
        let fusion = FusionOptions {
            algorithm,
            cost_model: settings.cost_model.clone(),
            budget: Budget { max_nodes: Some(Budget::DEFAULT_NODES), max_ms: Some(settings.budget_ms) },
            specialize: vec![specialization(&entry, &given)],
            decisions: None,
        };
        let options = PassOptions { fusion, ..PassOptions::default() };
        let reports = pipeline::to_kernels(&mut m, &entry, &options).map_err(|e| e.0)?;
        Ok(reports.iter().map(region).collect())
    }
}

/// What the editor shows of one region: per block its source lines, whether it computes, and the
/// arrays contracted in it (those of the region's contracted arrays that the block allocates).
fn region(r: &RegionReport) -> FusionRegion {
    let blocks = r
        .blocks
        .iter()
        .map(|b| {
            let ops = b.iter().map(|&i| &r.ops[i]);
            FusionBlock {
                lines: ops.clone().filter_map(|o| o.line).collect(),
                kernel: ops.clone().any(|o| !matches!(o.name.as_str(), "new" | "del" | "sync")),
                contracted: ops.flat_map(|o| &o.new).filter(|n| r.contracted.contains(n)).cloned().collect(),
            }
        })
        .collect();
    FusionRegion { blocks }
}
