//! Build script: link the `ctxlake` binary as a position-dependent executable on Linux.
//!
//! Why: the hook is a whole process per agent event with a 5 ms p99 budget. As a PIE, the
//! loader must apply ~36k relative relocations (vtables and static tables from the model,
//! HTTP and store crates) before `main`, touching ~150 extra pages on every start. Linked
//! `-no-pie`, those pointers are fixed at link time: measured 353 → 201 page faults and
//! 1.9 → 1.4 ms CPU per hook (benches/hook_bench.sh has the wall times). The cost is that
//! the executable's own image is not address-randomized (libraries, heap and stack still
//! are). Set `CTXLAKE_BUILD_PIE=1` at build time to keep a PIE.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CTXLAKE_BUILD_PIE");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" && std::env::var_os("CTXLAKE_BUILD_PIE").is_none() {
        println!("cargo:rustc-link-arg-bin=ctxlake=-no-pie");
    }
}
