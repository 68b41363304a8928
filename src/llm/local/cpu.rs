//! Which of ggml's CPU kernels this process runs.
//!
//! The default build links one CPU backend, compiled with ggml's
//! non-native defaults (SSE4.2, AVX, AVX2, FMA, F16C, BMI2: the x86-64-v3
//! class). The portable build (`--features portable`, `scripts/release.sh`)
//! compiles the kernels once per CPU generation as loadable modules
//! (`libggml-cpu-<variant>.so`) shipped next to the binary; at start the
//! process asks each module how well it fits this CPU (its
//! `ggml_backend_score`, 0 when the CPU lacks an instruction it uses) and
//! loads the best one. AMX is decided here at run time, not by a build
//! flag: the AMX variant is offered only when a deployment asks for it
//! (`ECHOES_AMX=1`) and the kernel grants this process AMX's tile state
//! (`arch_prctl`), since a CPU may report AMX under a hypervisor where its
//! tile instructions still fault.
//!
//! `ECHOES_CPU_KERNELS=<variant>` (e.g. `haswell`) loads that variant and
//! no other; `ECHOES_CPU_KERNELS_DIR` names the directory to look in first.

use std::ffi::CStr;
use std::sync::OnceLock;

/// The kernels in use, for `echoes bench local-model` and the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuKernels {
    /// The variant (`haswell`, `icelake`, …), or `built in`.
    pub variant: String,
    /// The instruction sets the backend reports using (`AVX2`, `AVX512`, …).
    pub features: Vec<String>,
}

impl std::fmt::Display for CpuKernels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.variant, self.features.join(" "))
    }
}

/// Makes sure a CPU backend is registered (loading the best module in a
/// portable build), once per process, and says which.
pub fn kernels() -> Result<&'static CpuKernels, String> {
    static KERNELS: OnceLock<Result<CpuKernels, String>> = OnceLock::new();
    KERNELS
        .get_or_init(|| {
            let variant = if registered_cpu().is_some() { "built in".to_owned() } else { modules::load_best()? };
            let features = registered_cpu().map(features).unwrap_or_default();
            let kernels = CpuKernels { variant, features };
            tracing::info!(kernels = %kernels, "llama.cpp CPU kernels");
            Ok(kernels)
        })
        .as_ref()
        .map_err(Clone::clone)
}

fn registered_cpu() -> Option<llama_cpp_sys_2::ggml_backend_reg_t> {
    // SAFETY: a NUL-terminated name; ggml returns null when none is registered.
    let reg = unsafe { llama_cpp_sys_2::ggml_backend_reg_by_name(c"CPU".as_ptr()) };
    (!reg.is_null()).then_some(reg)
}

/// The features the CPU backend reports with a value of `1` (its compiled
/// instruction sets), through its `ggml_backend_get_features` entry.
fn features(reg: llama_cpp_sys_2::ggml_backend_reg_t) -> Vec<String> {
    type GetFeatures =
        unsafe extern "C" fn(llama_cpp_sys_2::ggml_backend_reg_t) -> *mut llama_cpp_sys_2::ggml_backend_feature;
    // SAFETY: `reg` is a registered backend; the name is NUL-terminated.
    let entry =
        unsafe { llama_cpp_sys_2::ggml_backend_reg_get_proc_address(reg, c"ggml_backend_get_features".as_ptr()) };
    if entry.is_null() {
        return Vec::new();
    }
    // SAFETY: ggml documents this entry's signature as `GetFeatures`.
    let get: GetFeatures = unsafe { std::mem::transmute::<*mut std::ffi::c_void, GetFeatures>(entry) };
    let mut out = Vec::new();
    // SAFETY: the list ends with a null name; names and values are static strings.
    unsafe {
        let mut at = get(reg);
        while !at.is_null() && !(*at).name.is_null() {
            let name = CStr::from_ptr((*at).name).to_string_lossy();
            let value = if (*at).value.is_null() { "".into() } else { CStr::from_ptr((*at).value).to_string_lossy() };
            if value == "1" {
                out.push(name.into_owned());
            }
            at = at.add(1);
        }
    }
    out
}

/// Whether this process may use AMX: the CPU reports it, the kernel kept it
/// (Linux drops the flag when the state can't be saved), and the kernel
/// grants the tile data state to this process.
#[cfg(target_os = "linux")]
pub fn amx_granted() -> bool {
    const ARCH_REQ_XCOMP_PERM: libc::c_long = 0x1023;
    const XFEATURE_XTILEDATA: libc::c_long = 18;
    let reported = std::fs::read_to_string("/proc/cpuinfo").is_ok_and(|info| {
        info.lines().any(|l| l.starts_with("flags") && l.split_whitespace().any(|f| f == "amx_tile"))
    });
    // SAFETY: arch_prctl with a request and an integer argument; no memory is passed.
    reported && unsafe { libc::syscall(libc::SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) } == 0
}

#[cfg(not(target_os = "linux"))]
pub fn amx_granted() -> bool {
    false
}

/// Whether the AMX variant may be chosen: asked for (`ECHOES_AMX=1`, or
/// the variant named by `ECHOES_CPU_KERNELS`) and granted. Not by default:
/// on a Xeon VM whose CPU reports AMX and whose kernel grants the tile
/// state, ggml's AMX kernels still died on their first `tileloadd`
/// (SIGILL), so the best AVX-512 variant serves unless a deployment says
/// its CPU runs AMX.
#[cfg_attr(not(feature = "portable"), allow(dead_code))]
fn amx_wanted(forced: Option<&str>) -> bool {
    let asked = forced.is_some_and(needs_amx) || std::env::var("ECHOES_AMX").is_ok_and(|v| v == "1");
    asked && amx_granted()
}

/// A module's file name → its variant (`libggml-cpu-haswell.so` → `haswell`).
#[cfg_attr(not(feature = "portable"), allow(dead_code))]
fn variant_of(file_name: &str) -> Option<&str> {
    file_name.strip_prefix("libggml-cpu-")?.strip_suffix(".so")
}

/// Variants that need AMX's tile state.
#[cfg_attr(not(feature = "portable"), allow(dead_code))]
fn needs_amx(variant: &str) -> bool {
    variant == "sapphirerapids"
}

/// The best-scoring candidate, AMX variants left out unless granted, a
/// forced variant the only one considered. A score of 0 means unusable.
#[cfg_attr(not(feature = "portable"), allow(dead_code))]
fn choose<'a>(candidates: &'a [(String, i32)], amx: bool, forced: Option<&str>) -> Option<&'a str> {
    candidates
        .iter()
        .filter(|(variant, score)| *score > 0 && (amx || !needs_amx(variant)))
        .filter(|(variant, _)| forced.is_none_or(|f| f == variant))
        .max_by_key(|(_, score)| *score)
        .map(|(variant, _)| variant.as_str())
}

#[cfg(all(feature = "portable", target_os = "linux"))]
mod modules {
    use std::path::{Path, PathBuf};

    use std::ffi::CString;

    use super::{choose, variant_of};

    /// Where the modules may be: the named directory, the binary's own, and
    /// the build's output (a development build run from the target folder).
    fn directories() -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> =
            std::env::var_os("ECHOES_CPU_KERNELS_DIR").map(PathBuf::from).into_iter().collect();
        if let Some(dir) = std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf)) {
            dirs.push(dir);
        }
        dirs.extend(llama_cpp_sys_2::BACKENDS_DIR.map(PathBuf::from));
        dirs
    }

    /// `ggml_backend_score` of one module, or 0 where it can't be asked.
    fn score(path: &Path) -> i32 {
        let Ok(name) = CString::new(path.as_os_str().as_encoded_bytes()) else { return 0 };
        // SAFETY: dlopen/dlsym/dlclose on a path; the symbol, when present,
        // is ggml's `int ggml_backend_score(void)`, which only reads CPUID.
        unsafe {
            let handle = libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if handle.is_null() {
                return 0;
            }
            let symbol = libc::dlsym(handle, c"ggml_backend_score".as_ptr());
            let value = if symbol.is_null() {
                0
            } else {
                std::mem::transmute::<*mut libc::c_void, unsafe extern "C" fn() -> i32>(symbol)()
            };
            libc::dlclose(handle);
            value
        }
    }

    pub(super) fn load_best() -> Result<String, String> {
        let forced = std::env::var("ECHOES_CPU_KERNELS").ok().filter(|v| !v.is_empty());
        let amx = super::amx_wanted(forced.as_deref());
        let dirs = directories();
        for dir in &dirs {
            let Ok(entries) = std::fs::read_dir(dir) else { continue };
            let candidates: Vec<(String, i32, PathBuf)> = entries
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let variant = variant_of(e.file_name().to_str()?)?.to_owned();
                    Some((variant, score(&e.path()), e.path()))
                })
                .collect();
            if candidates.is_empty() {
                continue;
            }
            let scored: Vec<(String, i32)> = candidates.iter().map(|(v, s, _)| (v.clone(), *s)).collect();
            let Some(best) = choose(&scored, amx, forced.as_deref()) else {
                return Err(format!(
                    "none of llama.cpp's CPU kernels in {} runs on this CPU{}",
                    dir.display(),
                    forced.as_deref().map(|f| format!(" as `{f}` (ECHOES_CPU_KERNELS)")).unwrap_or_default()
                ));
            };
            let path = candidates.iter().find(|(v, _, _)| v == best).map(|(_, _, p)| p.clone()).unwrap_or_default();
            let c_path = CString::new(path.as_os_str().as_encoded_bytes()).map_err(|e| e.to_string())?;
            // SAFETY: a NUL-terminated path of a ggml backend module.
            let reg = unsafe { llama_cpp_sys_2::ggml_backend_load(c_path.as_ptr()) };
            if reg.is_null() {
                return Err(format!("llama.cpp could not load its CPU kernels {}", path.display()));
            }
            return Ok(best.to_owned());
        }
        Err(format!(
            "llama.cpp's CPU kernels (libggml-cpu-*.so) are not in {}: keep them beside the binary as scripts/release.sh leaves them",
            dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
        ))
    }
}

#[cfg(not(all(feature = "portable", target_os = "linux")))]
mod modules {
    pub(super) fn load_best() -> Result<String, String> {
        Err("llama.cpp has no CPU backend: this build has none linked in and loads no modules".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(list: &[(&str, i32)]) -> Vec<(String, i32)> {
        list.iter().map(|(v, s)| ((*v).to_owned(), *s)).collect()
    }

    #[test]
    fn the_default_build_has_its_kernels_built_in() {
        let kernels = kernels().expect("a CPU backend");
        assert_eq!(kernels.variant, "built in");
        assert!(kernels.features.iter().any(|f| f.starts_with("AVX") || f.starts_with("SSE")), "{kernels}");
        assert!(!kernels.features.iter().any(|f| f.starts_with("AMX")), "AMX is never built in: {kernels}");
    }

    #[test]
    fn the_best_usable_variant_is_chosen() {
        let list = scored(&[("x64", 1), ("sse42", 5), ("haswell", 60), ("skylakex", 0), ("sapphirerapids", 0)]);
        assert_eq!(choose(&list, true, None), Some("haswell"));
    }

    #[test]
    fn amx_is_chosen_only_where_granted() {
        let list = scored(&[("haswell", 60), ("icelake", 900), ("sapphirerapids", 4000)]);
        assert_eq!(choose(&list, true, None), Some("sapphirerapids"));
        assert_eq!(choose(&list, false, None), Some("icelake"));
    }

    #[test]
    fn a_forced_variant_is_the_only_one_and_must_run_here() {
        let list = scored(&[("sse42", 5), ("haswell", 60), ("skylakex", 0)]);
        assert_eq!(choose(&list, true, Some("sse42")), Some("sse42"));
        assert_eq!(choose(&list, true, Some("skylakex")), None);
        assert_eq!(choose(&list, true, Some("zen9")), None);
    }

    #[test]
    fn module_names_give_their_variant() {
        assert_eq!(variant_of("libggml-cpu-haswell.so"), Some("haswell"));
        assert_eq!(variant_of("libggml-cpu.so"), None);
        assert_eq!(variant_of("libggml-base.so"), None);
    }
}
