//! The xtask commands as they are run: against checkouts, git revisions, specs on disk and
//! other projects, a module per command or use.

mod adoption;
mod checkouts;
mod diff_base;
mod semver_catalog;
mod spec_on_disk;
mod standalone_features;
