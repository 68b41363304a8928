//! A game's bundled data as the engine hands it over: the files of the
//! game's own folder under `data/`, read by whoever embeds or loads them
//! (`assets`), so a game reads its data without knowing where it lives.

/// The bundled files, by game folder.
pub trait Bundled: Send + Sync {
    /// Every file of `data/<folder>/`, one level down or deeper, as (path
    /// below the folder, text): `en/animals.toml`, `hollowtide/world.toml`.
    fn sources(&self, folder: &str) -> Vec<(String, String)>;
}
