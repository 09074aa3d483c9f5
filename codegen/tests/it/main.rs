//! The generator's integration tests, one binary with a module per topic: lowering, what is
//! emitted (golden files, a fixed point of the printer, routes that insert), specs split across
//! files and overlays, the breaking-change check, `Generator` on disk, mutation fuzzing and the
//! shape of the source itself.

mod build;
mod common;
mod diff;
mod fixed_point;
mod generator;
mod golden;
mod lower;
mod overlays;
mod robustness;
mod routes;
mod split;
mod structure;
mod tool;
