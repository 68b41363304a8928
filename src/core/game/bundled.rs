//! A game's bundled data as the engine hands it over: the files of the
//! game's own folder under `data/`, read by whoever embeds or loads them
//! (`assets`), so a game reads its data without knowing where it lives.

/// The bundled files, by game folder.
pub trait Bundled: Send + Sync {
    /// Every file of `data/<folder>/`, one level down or deeper, as (path
    /// below the folder, text): `en/animals.toml`, `hollowtide/world.toml`.
    fn sources(&self, folder: &str) -> Vec<(String, String)>;
}

/// A game's data read from its bundled folder by `read` (a game's
/// `from_sources`), each file it reports as a problem logged as `skipped`
/// and left out: what every game's `hosted` does first.
pub fn load<T, P: std::fmt::Display>(
    data: &dyn Bundled,
    folder: &str,
    skipped: &str,
    read: impl FnOnce(&[(String, String)]) -> (T, Vec<P>),
) -> std::sync::Arc<T> {
    let (found, problems) = read(&data.sources(folder));
    for p in &problems {
        tracing::warn!(problem = %p, "{skipped} was skipped");
    }
    std::sync::Arc::new(found)
}
