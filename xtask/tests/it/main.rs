//! The xtask commands as they are run: against checkouts, git revisions, specs on disk and
//! other projects, a module per command or use.

mod build_time;
mod checkouts;
mod diff_base;
mod guide;
mod semver_catalog;
mod spec_on_disk;
mod standalone_features;
